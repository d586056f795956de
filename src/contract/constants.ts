/**
 * The contract's fixed values, free of schemas: screens and machines that only need a value
 * import it from here, so the validation library stays out of the first page's JavaScript.
 * Each schema module re-exports the values it owns.
 */
export const DEFAULT_AGENT_ID = 'SpecialNoAgentFallback';

/** Who sees a published agent: its author only, the author's organisation, or everyone (after an admin approved it). */
export const AGENT_VISIBILITIES = ['private', 'organisation', 'public'] as const;

export const DEFAULT_CURRENT = 1;
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;
/** Far beyond any real list; an unbounded page number would overflow the database's offset. */
export const MAX_PAGE_NUMBER = 100_000;

export const MESSAGE_TEXT_MAX = 8000;
export const MESSAGE_FILES_MAX = 9;
export const DEFAULT_UPLOAD_LIMIT_BYTES = 20 * 1024 * 1024;

export const WECHAT_AUTHORIZE_URL = 'https://open.weixin.qq.com/connect/oauth2/authorize';
