import type { BrowserInfo } from '../../src/contract/users';

/** Longest User-Agent kept: real ones are a few hundred characters; the rest is noise or an attack. */
export const USER_AGENT_MAX = 512;

// Order matters: Edge and Opera also say Chrome, Chrome also says Safari, WeChat's browser says all of them.
const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/MicroMessenger\/([\d.]+)/, 'WeChat'],
  [/Edg(?:e|A|iOS)?\/([\d.]+)/, 'Edge'],
  [/(?:OPR|Opera)\/([\d.]+)/, 'Opera'],
  [/SamsungBrowser\/([\d.]+)/, 'Samsung Internet'],
  [/(?:Firefox|FxiOS)\/([\d.]+)/, 'Firefox'],
  [/(?:HeadlessChrome|Chrome|CriOS)\/([\d.]+)/, 'Chrome'],
  [/Version\/([\d.]+).*Safari\//, 'Safari'],
  [/^curl\/([\d.]+)/, 'curl'],
];

const OPERATING_SYSTEMS: readonly (readonly [RegExp, (match: RegExpExecArray) => string])[] = [
  [/Windows NT 10\.0/, () => 'Windows'],
  [/Windows NT 6\.3/, () => 'Windows 8.1'],
  [/Windows NT 6\.1/, () => 'Windows 7'],
  [/Windows/, () => 'Windows'],
  [/(?:iPhone|iPad|iPod).*? OS (\d+)/, (m) => `iOS ${m[1]}`],
  [/Android (\d+(?:\.\d+)?)/, (m) => `Android ${m[1]}`],
  [/HarmonyOS/, () => 'HarmonyOS'],
  [/CrOS/, () => 'ChromeOS'],
  [/Mac OS X (\d+)[._](\d+)/, (m) => `macOS ${m[1]}.${m[2]}`],
  [/Macintosh/, () => 'macOS'],
  [/Linux/, () => 'Linux'],
];

const major = (version: string) => version.split('.')[0];

/** "Chrome 131" on "Windows": what a person needs to recognise their own browser; empty when unknown. */
export function describeUserAgent(userAgent: string | null | undefined): BrowserInfo {
  const ua = (userAgent ?? '').slice(0, USER_AGENT_MAX);
  let browser = '';
  for (const [pattern, name] of BROWSERS) {
    const match = pattern.exec(ua);
    if (match) {
      browser = `${name} ${major(match[1]!)}`;
      break;
    }
  }
  let os = '';
  for (const [pattern, name] of OPERATING_SYSTEMS) {
    const match = pattern.exec(ua);
    if (match) {
      os = name(match);
      break;
    }
  }
  return { browser, os };
}
