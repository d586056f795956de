import * as v from 'valibot';

import { DEFAULT_CURRENT, DEFAULT_PAGE_SIZE, MAX_PAGE_NUMBER, MAX_PAGE_SIZE } from './constants';

export { DEFAULT_CURRENT, DEFAULT_PAGE_SIZE, MAX_PAGE_NUMBER, MAX_PAGE_SIZE };

const pageNumber = v.pipe(v.number(), v.integer(), v.minValue(1));

/** The paging fields every list request takes; both default as the spec says. */
export const pageRequestEntries = {
  current: v.optional(v.pipe(pageNumber, v.maxValue(MAX_PAGE_NUMBER)), DEFAULT_CURRENT),
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
