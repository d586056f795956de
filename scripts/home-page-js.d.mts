export declare const homePageJs: (
  distDir: string,
  options?: { locale?: string },
) => { files: Array<{ path: string; gzip: number }>; gzip: number };
export declare const HOME_PAGE_JS_TARGET: number;
export declare const HOME_PAGE_JS_LIMIT: number;
