import * as v from 'valibot';
import { idSchema, timestampSchema } from './common';
import { userInfoSchema } from './users';

export const wxConfigQuerySchema = v.object({ url: v.pipe(v.string(), v.url(), v.maxLength(2000)) });
export const wxConfigSchema = v.object({
  appId: v.string(),
  timestamp: v.number(),
  nonceStr: v.string(),
  signature: v.string(),
  /**
   * Where to send a person to authorise (the query is appended by the client): WeChat's page,
   * or a local consent page when the server simulates WeChat. Absent means WeChat's page.
   */
  authorizeUrl: v.optional(v.string()),
});
export type WxConfig = v.InferOutput<typeof wxConfigSchema>;

export const wxLoginQuerySchema = v.object({ code: v.pipe(v.string(), v.minLength(1), v.maxLength(512)) });

/**
 * A secret the waiting browser makes up and keeps (a random UUID is fine): the ticket id is shown
 * to anyone who sees the QR code, so collecting the login also takes this.
 */
export const fingerPrintSchema = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z0-9_-]{16,128}$/, 'fingerPrint must be 16 to 128 letters, digits, dashes or underscores'),
);

export const registerLoginQuerySchema = v.object({ fingerPrint: fingerPrintSchema });
/** A fresh scan id and when it stops being valid. */
export const scanTicketSchema = v.object({ id: idSchema, expiresAt: timestampSchema });
export type ScanTicket = v.InferOutput<typeof scanTicketSchema>;

export const validateLoginRequestSchema = v.object({ id: idSchema, fingerPrint: fingerPrintSchema });
/** `denied`: the person asked to approve pressed Deny; the waiting browser may ask for a new code. */
export const SCAN_STATUSES = ['waiting', 'confirmed', 'denied', 'expired'] as const;
export type ScanState = (typeof SCAN_STATUSES)[number];
export const scanStatusSchema = v.object({
  status: v.picklist(SCAN_STATUSES),
  token: v.optional(v.string()),
  userInfo: v.optional(userInfoSchema),
});
export type ScanStatus = v.InferOutput<typeof scanStatusSchema>;

export const scanIdRequestSchema = v.object({ scanid: idSchema, fingerPrint: fingerPrintSchema });

/** WeChat's authorisation page for official accounts. */
export { WECHAT_AUTHORIZE_URL } from './constants';
