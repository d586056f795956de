import * as v from 'valibot';

/** Ids are opaque strings to clients. */
export const idSchema = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(64));
/** Timestamps travel as ISO-8601 strings in UTC. */
export const timestampSchema = v.pipe(v.string(), v.isoTimestamp());
