import type { Connector, PublishInput, PublishResult } from './connector';
import { PublishError } from './connector';

export type LinkedInConfig = {
  /** e.g. https://api.linkedin.com (no trailing slash). */
  apiBase: string;
  accessToken: string;
  /** urn:li:person:… or urn:li:organization:… */
  authorUrn: string;
  /** The `LinkedIn-Version` header, YYYYMM. */
  version: string;
  timeoutMs?: number;
};

export const DEFAULT_LINKEDIN_API_BASE = 'https://api.linkedin.com';
export const DEFAULT_LINKEDIN_VERSION = '202505';

/** LinkedIn's "little text" reserves these; unescaped they cut the post short. */
const RESERVED = /[\\|{}@[\]()<>*_~]/g;

/** The post text in LinkedIn's commentary format: reserved characters escaped, `#tags` as hashtags. */
export function toCommentary(body: string): string {
  return body
    .split(/(#[\p{L}\p{N}_]+)/u)
    .map((part, index) => {
      if (index % 2 === 1) return `{hashtag|\\#|${part.slice(1).replace(RESERVED, (ch) => `\\${ch}`)}}`;
      return part.replace(RESERVED, (ch) => `\\${ch}`).replace(/#/g, '\\#');
    })
    .join('');
}

/** Reads LinkedIn's error body (`{message, status}`) into a sentence for the operator. */
async function describeFailure(response: Response, what: string): Promise<string> {
  const text = await response.text().catch(() => '');
  let detail = '';
  try {
    const body = JSON.parse(text) as { message?: unknown };
    if (typeof body.message === 'string') detail = body.message;
  } catch {
    detail = text.slice(0, 200);
  }
  const hint =
    response.status === 401
      ? ' The access token is invalid or expired: renew the LinkedIn access token (in the console, or LINKEDIN_ACCESS_TOKEN).'
      : response.status === 403
        ? ' The token lacks the w_member_social (or w_organization_social) permission for this author.'
        : response.status === 429
          ? ' LinkedIn is rate-limiting this app; schedule the task again later.'
          : '';
  return `LinkedIn refused ${what} (HTTP ${response.status})${detail ? `: ${detail}` : ''}.${hint}`;
}

/**
 * Publishes through LinkedIn's Posts API (`POST /rest/posts`), uploading images first through
 * the Images API (`POST /rest/images?action=initializeUpload`, then a PUT of the bytes).
 */
export function createLinkedInConnector(config: LinkedInConfig, fetchImpl: typeof fetch = fetch): Connector {
  const headers = {
    Authorization: `Bearer ${config.accessToken}`,
    'LinkedIn-Version': config.version,
    'X-Restli-Protocol-Version': '2.0.0',
  };
  const timeout = config.timeoutMs ?? 30_000;

  const request = async (url: string, init: RequestInit, what: string): Promise<Response> => {
    let response: Response;
    try {
      response = await fetchImpl(url, { ...init, signal: AbortSignal.timeout(timeout) });
    } catch (error) {
      const reason = error instanceof Error && error.name === 'TimeoutError' ? 'it did not answer in time' : 'it could not be reached';
      throw new PublishError(`LinkedIn could not take ${what}: ${reason}. Schedule the task again to retry.`);
    }
    if (!response.ok) throw new PublishError(await describeFailure(response, what));
    return response;
  };

  const uploadImage = async (image: PublishInput['images'][number]): Promise<string> => {
    const init = await request(
      `${config.apiBase}/rest/images?action=initializeUpload`,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ initializeUploadRequest: { owner: config.authorUrn } }),
      },
      `the image ${image.name}`,
    );
    const answer = (await init.json().catch(() => null)) as { value?: { uploadUrl?: unknown; image?: unknown } } | null;
    const uploadUrl = answer?.value?.uploadUrl;
    const urn = answer?.value?.image;
    if (typeof uploadUrl !== 'string' || typeof urn !== 'string') {
      throw new PublishError(`LinkedIn answered the image upload of ${image.name} without an upload address.`);
    }
    await request(
      uploadUrl,
      { method: 'PUT', headers: { Authorization: headers.Authorization, 'Content-Type': image.mimeType }, body: image.bytes as Uint8Array<ArrayBuffer> },
      `the bytes of ${image.name}`,
    );
    return urn;
  };

  return {
    platform: 'linkedin',
    mode: 'api',
    label: `LinkedIn Posts API at ${config.apiBase} as ${config.authorUrn}`,
    async publish(input: PublishInput): Promise<PublishResult> {
      const imageUrns: string[] = [];
      for (const image of input.images) imageUrns.push(await uploadImage(image));
      const content =
        imageUrns.length === 1
          ? { media: { id: imageUrns[0], altText: input.images[0]!.name } }
          : imageUrns.length > 1
            ? { multiImage: { images: imageUrns.map((id, index) => ({ id, altText: input.images[index]!.name })) } }
            : undefined;
      const response = await request(
        `${config.apiBase}/rest/posts`,
        {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: JSON.stringify({
            author: config.authorUrn,
            commentary: toCommentary(input.body),
            visibility: 'PUBLIC',
            distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
            ...(content ? { content } : {}),
            lifecycleState: 'PUBLISHED',
            isReshareDisabledByAuthor: false,
          }),
        },
        'the post',
      );
      const externalId = response.headers.get('x-restli-id') ?? response.headers.get('x-linkedin-id');
      if (!externalId) throw new PublishError('LinkedIn accepted the post but did not say its id (no x-restli-id header).');
      return { externalId, externalUrl: `https://www.linkedin.com/feed/update/${externalId}/` };
    },
  };
}

/** LinkedIn's connector when LINKEDIN_ACCESS_TOKEN and LINKEDIN_AUTHOR_URN are set; null otherwise. */
/** Where LinkedIn's API is and which version is spoken: for the environment's token and the console's alike. */
export function linkedInEndpointFromEnv(env: NodeJS.ProcessEnv): Pick<LinkedInConfig, 'apiBase' | 'version'> {
  const version = env.LINKEDIN_API_VERSION?.trim() || DEFAULT_LINKEDIN_VERSION;
  if (!/^\d{6}$/.test(version)) throw new Error(`LINKEDIN_API_VERSION must be YYYYMM, got "${version}"`);
  return { apiBase: (env.LINKEDIN_API_BASE?.trim() || DEFAULT_LINKEDIN_API_BASE).replace(/\/+$/, ''), version };
}

export function linkedInConfigFromEnv(env: NodeJS.ProcessEnv): LinkedInConfig | null {
  const accessToken = env.LINKEDIN_ACCESS_TOKEN?.trim();
  if (!accessToken) return null;
  const authorUrn = env.LINKEDIN_AUTHOR_URN?.trim();
  if (!authorUrn || !/^urn:li:(person|organization):\S+$/.test(authorUrn)) {
    throw new Error('LINKEDIN_AUTHOR_URN must be urn:li:person:<id> or urn:li:organization:<id> when LINKEDIN_ACCESS_TOKEN is set');
  }
  return { ...linkedInEndpointFromEnv(env), accessToken, authorUrn };
}
