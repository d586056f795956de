import { call, type CallOptions } from '../http';

export const getWxConfig = (url: string, options?: CallOptions) => call('wxConfig', { url }, options);

export const loginWithWxCode = (code: string, options?: CallOptions) => call('wxLogin', { code }, options);

export const openScanTicket = (fingerPrint: string, options?: CallOptions) =>
  call('wxRegisterLogin', { fingerPrint }, options);

export const validateScanLogin = (id: string, fingerPrint: string, options?: CallOptions) =>
  call('wxValidateLogin', { id, fingerPrint }, options);

export const loginWithScanId = (scanid: string, fingerPrint: string, options?: CallOptions) =>
  call('wxLoginByScanId', { scanid, fingerPrint }, options);
