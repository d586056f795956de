export declare const SERVER_BUILD_DIR: string;
export declare const BUILD_INPUTS: string;
export declare function buildServer(): Promise<void>;
