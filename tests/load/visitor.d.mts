export const CREATE_PATH: string;

export type VisitorResult = { ok: boolean; firstEventMs: number; totalMs: number; error?: string };

export function percentile(values: number[], p: number): number;

export function oneVisitor(baseUrl: string, options?: { onFirst?: () => void }): Promise<VisitorResult>;
