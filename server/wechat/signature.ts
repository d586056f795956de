import { createHash } from 'node:crypto';

/** The page URL WeChat signs: everything before the `#fragment`, unchanged otherwise. */
export const signedUrlOf = (url: string): string => url.split('#')[0]!;

/**
 * WeChat JS-SDK signature: SHA-1 (hex) of `jsapi_ticket=…&noncestr=…&timestamp=…&url=…`, the
 * four fields in this order, raw (no URL-encoding), and the URL without its fragment.
 */
export function jsapiSignature(input: { ticket: string; nonceStr: string; timestamp: number; url: string }): string {
  const text = `jsapi_ticket=${input.ticket}&noncestr=${input.nonceStr}&timestamp=${input.timestamp}&url=${signedUrlOf(input.url)}`;
  return createHash('sha1').update(text, 'utf8').digest('hex');
}
