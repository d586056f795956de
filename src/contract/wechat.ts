import * as v from 'valibot';
import { idSchema, timestampSchema } from './common';
import { userInfoSchema } from './users';

export const wxConfigQuerySchema = v.object({ url: v.pipe(v.string(), v.url(), v.maxLength(2000)) });
export const wxConfigSchema = v.object({
  appId: v.string(),
  timestamp: v.number(),
  nonceStr: v.string(),
  signature: v.string(),
});
export type WxConfig = v.InferOutput<typeof wxConfigSchema>;

export const wxLoginQuerySchema = v.object({ code: v.pipe(v.string(), v.minLength(1), v.maxLength(512)) });

export const registerLoginQuerySchema = v.object({ fingerPrint: v.pipe(v.string(), v.minLength(1), v.maxLength(128)) });
/** A fresh scan id and when it stops being valid. */
export const scanTicketSchema = v.object({ id: idSchema, expiresAt: timestampSchema });
export type ScanTicket = v.InferOutput<typeof scanTicketSchema>;

export const validateLoginRequestSchema = v.object({ id: idSchema });
export const SCAN_STATUSES = ['waiting', 'confirmed', 'expired'] as const;
export const scanStatusSchema = v.object({
  status: v.picklist(SCAN_STATUSES),
  token: v.optional(v.string()),
  userInfo: v.optional(userInfoSchema),
});
export type ScanStatus = v.InferOutput<typeof scanStatusSchema>;

export const scanIdRequestSchema = v.object({ scanid: idSchema });
