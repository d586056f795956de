/** A label such as "</>" must not break the SVG it is written into. */
const escapeXml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A round avatar as an inline SVG data URL, so the market needs no outside host. */
export function avatarDataUrl(label: string, background: string, foreground = '#ffffff'): string {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">` +
    `<circle cx="48" cy="48" r="48" fill="${background}"/>` +
    `<text x="48" y="50" font-family="-apple-system,Segoe UI,Helvetica,Arial,sans-serif" font-size="38" font-weight="600" ` +
    `fill="${foreground}" text-anchor="middle" dominant-baseline="central">${escapeXml(label)}</text></svg>`;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
