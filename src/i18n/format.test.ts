import { describe, expect, it } from 'vitest';
import { dayGroupOf, formatBytes, formatList, formatNumber, formatRelativeTime } from './format';

const now = new Date(2026, 10, 21, 12, 0, 0);

describe('locale formatting', () => {
  it('says relative times in each language', () => {
    const fiveMinutesAgo = new Date(now.getTime() - 5 * 60 * 1000);
    expect(formatRelativeTime(fiveMinutesAgo, 'en-US', now)).toBe('5 minutes ago');
    expect(formatRelativeTime(fiveMinutesAgo, 'de-DE', now)).toBe('vor 5 Minuten');
    expect(formatRelativeTime(fiveMinutesAgo, 'fr-FR', now)).toBe('il y a 5 minutes');
    expect(formatRelativeTime(fiveMinutesAgo, 'ja', now)).toBe('5 分前');
    expect(formatRelativeTime(fiveMinutesAgo, 'zh-CN', now)).toBe('5分钟前');
    expect(formatRelativeTime(new Date(now.getTime() - 24 * 3600 * 1000), 'en-US', now)).toBe('yesterday');
    expect(formatRelativeTime(new Date(now.getTime() - 10 * 1000), 'en-US', now)).toBe('just now');
    const tenSecondsAgo = new Date(now.getTime() - 10 * 1000);
    expect(['zh-CN', 'fr-FR', 'de-DE', 'ja'].map((locale) => formatRelativeTime(tenSecondsAgo, locale, now))).toEqual(['刚刚', 'à l’instant', 'gerade eben', 'たった今']);
  });

  it('formats numbers, lists and sizes by locale', () => {
    expect(formatNumber(1234567.5, 'de-DE')).toBe('1.234.567,5');
    expect(formatNumber(1234567.5, 'en-US')).toBe('1,234,567.5');
    expect(formatList(['A', 'B', 'C'], 'en-US')).toBe('A, B, and C');
    expect(formatList(['A', 'B', 'C'], 'fr-FR')).toBe('A, B et C');
    expect(formatBytes(1536, 'en-US')).toBe('1.5 kB');
    expect(formatBytes(178, 'en-US')).toBe('178 B');
    expect(formatBytes(20 * 1024 * 1024, 'de-DE')).toBe('20 MB');
  });

  it('groups history dates by calendar day', () => {
    expect(dayGroupOf(new Date(2026, 10, 21, 0, 5), now)).toBe('today');
    expect(dayGroupOf(new Date(2026, 10, 20, 23, 59), now)).toBe('yesterday');
    expect(dayGroupOf(new Date(2026, 10, 16, 9, 0), now)).toBe('previous7Days');
    expect(dayGroupOf(new Date(2026, 10, 1, 9, 0), now)).toBe('earlier');
  });
});
