import * as v from 'valibot';

export const DEFAULT_CURRENT = 1;
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

const pageNumber = v.pipe(v.number(), v.integer(), v.minValue(1));

/** The paging fields every list request takes; both default as the spec says. */
export const pageRequestEntries = {
  current: v.optional(pageNumber, DEFAULT_CURRENT),
  pageSize: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_PAGE_SIZE)), DEFAULT_PAGE_SIZE),
};

export const pageSchema = <T extends v.GenericSchema>(item: T) =>
  v.object({
    list: v.array(item),
    total: v.pipe(v.number(), v.integer(), v.minValue(0)),
    current: pageNumber,
    pageSize: pageNumber,
  });

export type Page<T> = { list: T[]; total: number; current: number; pageSize: number };
