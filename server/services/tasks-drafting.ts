import { DRAFT_MARKER, PLATFORM_LIMITS, type Brief, type DraftingSession, type Platform, type PostLanguage } from '../../src/contract/tasks';
import type { Clock } from '../config';
import type { Db } from '../db/client';
import type { Caller, Owner } from '../http/caller';
import { badRequest } from '../http/errors';
import { findVisibleAgent } from './agents';
import { createConversation } from './conversations';

/** The market's writer agent for each platform. */
export const WRITER_AGENTS: Record<Platform, string> = {
  xiaohongshu: 'xhs-note-writer',
  linkedin: 'linkedin-post-writer',
};

const LANGUAGE_NAMES: Record<PostLanguage, string> = {
  'zh-CN': 'Simplified Chinese',
  'en-US': 'English',
  'fr-FR': 'French',
  'de-DE': 'German',
  ja: 'Japanese',
};

/** The question that asks the writer agent for `count` drafts, each after a marker line the SPA splits on. */
export function draftingPrompt(platform: Platform, brief: Brief, count: number): string {
  const limits = PLATFORM_LIMITS[platform];
  const lines = [
    `Write ${count} different drafts for a ${platform === 'xiaohongshu' ? 'Xiaohongshu (RED) note' : 'LinkedIn post'}.`,
    '',
    `Topic: ${brief.topic}`,
    ...(brief.audience ? [`Audience: ${brief.audience}`] : []),
    ...(brief.tone ? [`Tone: ${brief.tone}`] : []),
    ...(brief.keywords.length ? [`Keywords to work in: ${brief.keywords.join(', ')}`] : []),
    `Language: write every draft in ${LANGUAGE_NAMES[brief.language]}.`,
    '',
    'Format, strictly:',
    `- Start each draft with a line containing only ${DRAFT_MARKER}.`,
    ...(platform === 'xiaohongshu'
      ? [
          `- The first line after the marker is the note title, at most ${limits.titleMax} characters, without a "Title:" label.`,
          `- Then the note body, at most ${limits.bodyMax} characters, ending with 5 to 10 topic tags written as #tag.`,
        ]
      : [
          `- Then the post, at most ${limits.bodyMax} characters; its first ${limits.seeMoreAt} characters must hook the reader, because LinkedIn cuts the rest behind "see more".`,
          '- At most three hashtags, written as #tag, at the end.',
        ]),
    '- Make the drafts differ in angle and hook, not only in wording.',
    `- Write nothing before the first ${DRAFT_MARKER} and nothing after the last draft.`,
  ];
  return lines.join('\n');
}

/**
 * Opens a conversation of the operator's with the platform's writer agent and answers the prompt
 * to stream through the chat endpoint; the drafts stay in that conversation like any other answer.
 * It is a drafting conversation: reachable by its id, never listed in the person's chat history.
 */
export async function startDrafting(
  db: Db,
  clock: Clock,
  caller: Caller,
  owner: Owner,
  input: { platform: Platform; brief: Brief; count: number },
): Promise<DraftingSession> {
  if (input.brief.topic.trim() === '') throw badRequest('Invalid request: brief.topic: write the topic of the post first.');
  const agentId = WRITER_AGENTS[input.platform];
  const agent = await findVisibleAgent(db, caller, agentId);
  const conversation = await createConversation(db, clock, caller, owner, {
    source: 'agent',
    sourceId: agentId,
    purpose: 'drafting',
    title: `${input.platform === 'xiaohongshu' ? '小红书' : 'LinkedIn'} · ${[...input.brief.topic].slice(0, 40).join('')}`,
  });
  return {
    conversationId: conversation.conversationId,
    agentId,
    agentName: agent.name,
    prompt: draftingPrompt(input.platform, input.brief, input.count),
    count: input.count,
  };
}
