import { and, eq } from 'drizzle-orm';
import type { Platform, PublishMode } from '../../src/contract/tasks';
import type { Sealer } from '../auth/sealed';
import type { Db } from '../db/client';
import { connectors as connectorRows } from '../db/schema';
import { DEMO_COMPANY_ID } from '../seed/demo-account';
import { exportConnector, modesOf, type Connectors } from './connector';
import { createLinkedInConnector, DEFAULT_LINKEDIN_API_BASE, DEFAULT_LINKEDIN_VERSION, type LinkedInConfig } from './linkedin';

/** The company whose connectors the LINKEDIN_* variables configure. */
export const DEFAULT_COMPANY_ID = DEMO_COMPANY_ID;

/** How each company's tasks reach their platforms: only ever with that company's own credentials. */
export type ConnectorDirectory = {
  forCompany(companyId: string | null): Promise<Connectors>;
  modesFor(companyId: string | null): Promise<Record<Platform, PublishMode>>;
};

const exportOnly: Connectors = { xiaohongshu: exportConnector('xiaohongshu'), linkedin: exportConnector('linkedin') };

/** The same connectors for every company: for tests of the scheduler alone. */
export const sameForEveryCompany = (connectors: Connectors): ConnectorDirectory => ({
  forCompany: async () => connectors,
  modesFor: async () => modesOf(connectors),
});

/**
 * Each company's connectors: those its admin set in the console (sealed in the database), else,
 * for the default company alone, those of the environment (LINKEDIN_*), else export by hand.
 * A task without a company, or of a company with nothing configured, is never posted.
 */
export function createConnectorDirectory(options: {
  db: Db;
  sealer: Sealer | null;
  /** The environment's connectors, the default company's. */
  environment: Connectors;
  linkedIn?: Pick<LinkedInConfig, 'apiBase' | 'version'>;
  fetchImpl?: typeof fetch;
}): ConnectorDirectory {
  const { db, sealer, environment } = options;
  const forCompany = async (companyId: string | null): Promise<Connectors> => {
    if (!companyId) return exportOnly;
    const fallback = companyId === DEFAULT_COMPANY_ID ? environment : exportOnly;
    const [row] = await db
      .select()
      .from(connectorRows)
      .where(and(eq(connectorRows.companyId, companyId), eq(connectorRows.platform, 'linkedin')))
      .limit(1);
    if (!row) return fallback;
    if (!sealer) throw new Error('a connector is stored but CONNECTOR_KEY is not set');
    const linkedin = createLinkedInConnector(
      {
        apiBase: options.linkedIn?.apiBase ?? DEFAULT_LINKEDIN_API_BASE,
        version: options.linkedIn?.version ?? DEFAULT_LINKEDIN_VERSION,
        accessToken: sealer.open(row.sealedSecret),
        authorUrn: row.authorUrn,
      },
      options.fetchImpl,
    );
    return { ...fallback, linkedin };
  };
  return { forCompany, modesFor: async (companyId) => modesOf(await forCompany(companyId)) };
}
