import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';

/** Rows drawn above and below the visible part, in pixels, so fast scrolls and Tab land on something. */
const OVERSCAN_PX = 400;
/** Until the list has been measured (or where nothing is laid out, as in tests) assume this height. */
const FALLBACK_VIEWPORT_PX = 800;

type VirtualListProps<T> = {
  rows: T[];
  rowKey: (row: T) => string;
  /** Each row's fixed height in pixels. */
  rowHeight: (row: T) => number;
  renderRow: (row: T) => ReactNode;
  /** Called when the end of the list is this close (spec: 100 px). */
  onNearEnd?: () => void;
  nearEndPx?: number;
  className?: string;
  label?: string;
  footer?: ReactNode;
};

/** The first row whose bottom edge is below `y`. */
const firstRowBelow = (offsets: number[], y: number): number => {
  let low = 0;
  let high = offsets.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (offsets[middle + 1]! <= y) low = middle + 1;
    else high = middle;
  }
  return low;
};

/**
 * A list that only puts the rows in view (and a margin) into the page, so ten thousand chats cost
 * what forty do. Rows have known heights; the list scrolls natively.
 */
export const VirtualList = <T,>({
  rows,
  rowKey,
  rowHeight,
  renderRow,
  onNearEnd,
  nearEndPx = 100,
  className = '',
  label,
  footer,
}: VirtualListProps<T>) => {
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(0);

  const offsets = useMemo(() => {
    const result = new Array<number>(rows.length + 1);
    result[0] = 0;
    for (let index = 0; index < rows.length; index += 1) result[index + 1] = result[index]! + rowHeight(rows[index]!);
    return result;
  }, [rows, rowHeight]);
  const total = offsets[rows.length] ?? 0;

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setViewport(element.clientHeight);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setViewport(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const checkNearEnd = useCallback(() => {
    const element = ref.current;
    if (!element || !onNearEnd || element.clientHeight === 0) return;
    if (element.scrollHeight - element.scrollTop - element.clientHeight <= nearEndPx) onNearEnd();
  }, [onNearEnd, nearEndPx]);

  // A first page shorter than the list's height has no scroll to wait for: ask for more now.
  useEffect(checkNearEnd, [checkNearEnd, total]);

  const height = viewport || FALLBACK_VIEWPORT_PX;
  const start = rows.length ? firstRowBelow(offsets, Math.max(0, scrollTop - OVERSCAN_PX)) : 0;
  let end = start;
  while (end < rows.length && offsets[end]! < scrollTop + height + OVERSCAN_PX) end += 1;

  return (
    <div
      ref={ref}
      className={`overflow-y-auto ${className}`}
      onScroll={(event) => {
        setScrollTop(event.currentTarget.scrollTop);
        checkNearEnd();
      }}
    >
      <ul aria-label={label} className="relative m-0 list-none p-0" style={{ height: total }}>
        {rows.slice(start, end).map((row, index) => (
          <li
            key={rowKey(row)}
            className="absolute inset-x-0"
            style={{ top: offsets[start + index], height: rowHeight(row) }}
          >
            {renderRow(row)}
          </li>
        ))}
      </ul>
      {footer}
    </div>
  );
};
