/** Dates, times, numbers and lists in the active locale, through Intl only. */

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

// Building an Intl formatter costs far more than using one; long lists (the history) format per row.
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const cached = <T>(cache: Map<string, T>, key: string, create: () => T): T => {
  let value = cache.get(key);
  if (!value) {
    value = create();
    cache.set(key, value);
  }
  return value;
};

/** "5 minutes ago", "gestern", "3 日前": the largest unit that fits, in the given locale. */
/** "Now" as people say it of something just done (Intl says 现在, maintenant, jetzt, 今). */
const JUST_NOW: Record<string, string> = { 'zh-CN': '刚刚', 'en-US': 'just now', 'fr-FR': 'à l’instant', 'de-DE': 'gerade eben', ja: 'たった今' };

export const formatRelativeTime = (date: Date | string, locale: string, now: Date = new Date()): string => {
  const then = typeof date === 'string' ? new Date(date) : date;
  const seconds = Math.round((then.getTime() - now.getTime()) / 1000);
  const format = cached(relativeFormats, locale, () => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }));
  if (Math.abs(seconds) < 45) return JUST_NOW[locale] ?? format.format(0, 'second');
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(seconds, 'second');
};

const waitFormats = new Map<string, Intl.RelativeTimeFormat>();

/**
 * When to try again, "in 42 seconds", "dans 3 heures", "5 分後": rounded up, so nobody is told
 * a time at which they would still be refused.
 */
export const formatRetryAfter = (seconds: number, locale: string): string => {
  const format = cached(waitFormats, locale, () => new Intl.RelativeTimeFormat(locale, { numeric: 'always' }));
  if (seconds < 90) return format.format(Math.max(1, Math.ceil(seconds)), 'second');
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return format.format(minutes, 'minute');
  const hours = Math.ceil(seconds / 3600);
  if (hours < 36) return format.format(hours, 'hour');
  return format.format(Math.ceil(seconds / 86400), 'day');
};

export const formatDateTime = (
  date: Date | string,
  locale: string,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' },
): string =>
  cached(dateFormats, `${locale}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options)).format(
    typeof date === 'string' ? new Date(date) : date,
  );

export const formatNumber = (value: number, locale: string, options?: Intl.NumberFormatOptions): string =>
  new Intl.NumberFormat(locale, options).format(value);

export const formatList = (items: string[], locale: string, type: Intl.ListFormatType = 'conjunction'): string =>
  new Intl.ListFormat(locale, { style: 'long', type }).format(items);

/** Bytes as "1.5 MB" in the locale's digits and separators. */
export const formatBytes = (bytes: number, locale: string): string => {
  // Intl's short "byte" reads oddly ("178 byte"); whole bytes take the symbol every locale uses.
  if (bytes < 1024) return `${new Intl.NumberFormat(locale).format(bytes)} B`;
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
  let value = bytes;
  let index = 0;
  while (value >= 1024 && index < units.length - 1) {
    value /= 1024;
    index += 1;
  }
  return new Intl.NumberFormat(locale, { style: 'unit', unit: units[index], unitDisplay: 'short', maximumFractionDigits: 1 }).format(value);
};

export type DayGroup = 'today' | 'yesterday' | 'previous7Days' | 'earlier';

/** Which history group a date falls in, by calendar day in the reader's time zone. */
export const dayGroupOf = (date: Date | string, now: Date = new Date()): DayGroup => {
  const then = typeof date === 'string' ? new Date(date) : date;
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const day = 24 * 3600 * 1000;
  if (then.getTime() >= startOfToday) return 'today';
  if (then.getTime() >= startOfToday - day) return 'yesterday';
  if (then.getTime() >= startOfToday - 7 * day) return 'previous7Days';
  return 'earlier';
};
