export declare const chromiumPath: () => string | null;
