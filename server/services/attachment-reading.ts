import { eq, inArray } from 'drizzle-orm';
import type { AgentRuntime, AttachmentNote, HistoryMessage, RuntimeAgent } from '../agents/runtime';
import type { AttachmentLimits, Clock } from '../config';
import type { Db } from '../db/client';
import { uploads, uploadTexts, type StoredFileRef } from '../db/schema';
import { textKind, type ReadFailure, type ReadText } from '../media/read-text';
import type { FileStorage } from '../media/storage';
import type { TextReader } from '../media/text-reader';

/** Text kept per upload: more than any one question sends, so a larger budget needs no new read. */
const STORED_TEXT_MAX = 200_000;

export type AttachmentDeps = {
  db: Db;
  storage: FileStorage;
  clock: Clock;
  limits: AttachmentLimits;
  log: (line: string) => void;
  /** Reads files in worker threads, never on the event loop. */
  reader: TextReader;
};

/**
 * Whether the model answering sees images: the model's own word (the registry's, where the
 * deployment's MODEL_ACCEPTS_IMAGES speaks for its built-in models); for an agent given without
 * its model, the deployment's setting, else the agent's.
 */
export const seesImages = (agent: Pick<RuntimeAgent, 'vision' | 'model'>, limits: Pick<AttachmentLimits, 'modelAcceptsImages'>): boolean =>
  agent.model ? agent.model.vision : (limits.modelAcceptsImages ?? agent.vision ?? false);

const FAILURE_WORDS: Record<ReadFailure, string> = {
  unreadable: 'it is damaged or not in a format that can be read',
  encrypted: 'it is protected by a password',
  too_long_to_read: 'reading it took too long',
  too_large_to_read: 'reading it needed more memory than a file may use',
  no_text: 'it holds no text (a scanned document, perhaps)',
  busy: 'the server is reading many files just now; ask again in a moment to have it read',
};

/**
 * The text of an upload, read once: the first question that sends it reads the bytes (through
 * the storage interface) and stores the text; every later one reads the stored text. Null when
 * the upload is gone.
 */
async function textOf(deps: AttachmentDeps, file: StoredFileRef, kind: 'pdf' | 'text'): Promise<ReadText | null> {
  const [stored] = await deps.db.select().from(uploadTexts).where(eq(uploadTexts.uploadId, file.fileId)).limit(1);
  if (stored) return { text: stored.text, chars: stored.chars, error: stored.error };
  const [upload] = await deps.db.select({ key: uploads.storageKey }).from(uploads).where(eq(uploads.id, file.fileId)).limit(1);
  const bytes = upload ? await deps.storage.get(upload.key) : null;
  if (!bytes) return null;
  const read = await deps.reader.read(bytes, kind, { maxChars: STORED_TEXT_MAX, pdfMaxPages: deps.limits.pdfMaxPages });
  if (read.error) deps.log(`attachments: no text read from upload ${file.fileId}: ${read.error}`);
  // Too busy says nothing about the file: the next question that sends it tries again.
  if (read.error === 'busy') return read;
  await deps.db
    .insert(uploadTexts)
    .values({ uploadId: file.fileId, text: read.text, chars: read.chars, error: read.error, createdAt: deps.clock.now() })
    .onConflictDoNothing();
  return read;
}

async function imageOf(deps: AttachmentDeps, file: StoredFileRef): Promise<string | null> {
  const [upload] = await deps.db.select({ key: uploads.storageKey, mimeType: uploads.mimeType }).from(uploads).where(eq(uploads.id, file.fileId)).limit(1);
  const bytes = upload ? await deps.storage.get(upload.key) : null;
  return bytes ? `data:${upload!.mimeType};base64,${Buffer.from(bytes).toString('base64')}` : null;
}

/** What is left to send: text, images, and of those the images of earlier questions and their bytes. */
type Budget = { chars: number; images: number; earlierImages: number; earlierBytes: number };
type Read = { block: string; note: AttachmentNote; image?: string };

/**
 * An image of an earlier question goes again only within the earlier-images budget; past it the
 * model is told the picture exists, by name, so "the red one from before" still means something.
 */
const resendsEarlier = (file: StoredFileRef, budget: Budget): boolean =>
  budget.earlierImages > 0 && file.size <= budget.earlierBytes;

async function readOne(
  deps: AttachmentDeps,
  file: StoredFileRef,
  vision: boolean,
  budget: Budget,
  present: Set<string>,
  earlier: boolean,
): Promise<Read> {
  const name = JSON.stringify(file.name);
  if (!present.has(file.fileId)) return { block: `[File ${name} is no longer available.]`, note: { name: file.name, outcome: 'missing' } };
  if (file.kind === 'image') {
    if (!vision) {
      return {
        block: `[Image ${name} attached. This agent cannot see images: only the file's name is known, not what it shows.]`,
        note: { name: file.name, outcome: 'image-unseen' },
      };
    }
    if (file.size > deps.limits.imageMaxBytes) {
      return {
        block: `[Image ${name} not sent: it is ${file.size} bytes, over the ${deps.limits.imageMaxBytes}-byte limit for images.]`,
        note: { name: file.name, outcome: 'image-too-large' },
      };
    }
    if (earlier && (budget.images <= 0 || !resendsEarlier(file, budget))) {
      return { block: `[Image ${name}, shown earlier.]`, note: { name: file.name, outcome: 'image-shown-earlier' } };
    }
    if (budget.images <= 0) {
      return {
        block: `[Image ${name} not sent: the limit of ${deps.limits.imagesPerRequest} images per question is reached.]`,
        note: { name: file.name, outcome: 'over-budget' },
      };
    }
    const image = await imageOf(deps, file);
    if (!image) return { block: `[File ${name} is no longer available.]`, note: { name: file.name, outcome: 'missing' } };
    budget.images -= 1;
    if (earlier) {
      budget.earlierImages -= 1;
      budget.earlierBytes -= file.size;
    }
    return { block: `[Image ${name} attached, shown with this message.]`, note: { name: file.name, outcome: 'image-sent' }, image };
  }
  const kind = textKind(file);
  if (!kind) {
    return {
      block: `[Attached ${file.kind} file: ${file.name} (${file.mimeType}, ${file.size} bytes); its content cannot be read.]`,
      note: { name: file.name, outcome: 'not-text' },
    };
  }
  const read = await textOf(deps, file, kind);
  if (!read) return { block: `[File ${name} is no longer available.]`, note: { name: file.name, outcome: 'missing' } };
  if (read.error) return { block: `[File ${name} could not be read: ${FAILURE_WORDS[read.error]}.]`, note: { name: file.name, outcome: 'unreadable' } };
  if (budget.chars <= 0) {
    return {
      block: `[File ${name} not included: the ${deps.limits.textCharBudget} characters of file text sent with a question are used up.]`,
      note: { name: file.name, outcome: 'over-budget' },
    };
  }
  const text = read.text.slice(0, budget.chars);
  budget.chars -= text.length;
  const cut = text.length < read.chars ? `\n[File ${name} was cut: only its first ${text.length} of ${read.chars} characters are included.]` : '';
  return {
    block: `[File ${name}, ${read.chars} characters:]\n${text}\n[End of file ${name}.]${cut}`,
    note: { name: file.name, outcome: 'read', chars: text.length, total: read.chars },
  };
}

/**
 * The history as the model reads it: each question's files read into it, the newest question's
 * first, so the budgets (characters of file text, number of images) go to what was just asked.
 * Whatever is left out is said, in a sentence the model reads.
 */
export async function readAttachments(deps: AttachmentDeps, agent: RuntimeAgent, history: HistoryMessage[]): Promise<HistoryMessage[]> {
  const ids = [...new Set(history.flatMap((entry) => entry.asked?.files.map((file) => file.fileId) ?? []))];
  if (ids.length === 0) return history;
  const rows = await deps.db.select({ id: uploads.id }).from(uploads).where(inArray(uploads.id, ids));
  const present = new Set(rows.map((row) => row.id));
  const vision = seesImages(agent, deps.limits);
  const budget: Budget = {
    chars: deps.limits.textCharBudget,
    images: deps.limits.imagesPerRequest,
    earlierImages: deps.limits.earlierImagesPerRequest,
    earlierBytes: deps.limits.earlierImageBytes,
  };
  const read = [...history];
  // The question being answered; every question before it is an earlier one.
  const latest = read.findLastIndex((entry) => entry.role === 'user');
  for (let index = read.length - 1; index >= 0; index--) {
    const entry = read[index]!;
    if (!entry.asked || entry.asked.files.length === 0) continue;
    const results: Read[] = [];
    for (const file of entry.asked.files) results.push(await readOne(deps, file, vision, budget, present, index !== latest));
    const images = results.flatMap((result) => (result.image ? [result.image] : []));
    read[index] = {
      ...entry,
      content: [entry.asked.text, ...results.map((result) => result.block)].filter(Boolean).join('\n\n'),
      ...(images.length > 0 ? { images } : {}),
      notes: results.map((result) => result.note),
    };
  }
  return read;
}

/** A runtime that reads each question's attachments into the history before the model is asked. */
export function withAttachmentsRead(runtime: AgentRuntime, deps: AttachmentDeps): AgentRuntime {
  return {
    label: runtime.label,
    async *streamAnswer(input) {
      const history = await readAttachments(deps, input.agent, input.history);
      yield* runtime.streamAnswer({ ...input, history });
    },
    ...(runtime.nameConversation ? { nameConversation: runtime.nameConversation.bind(runtime) } : {}),
  };
}
