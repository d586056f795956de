import { fromCallback } from 'xstate';
import type { ChatStreamReport } from '../../src/machines/chat-stream.actor';

/** One stream a machine opened: what it asked, and a way for the test to answer as the server. */
export type RecordedStream<Request> = { request: Request; report: (event: ChatStreamReport) => void };

/**
 * A stream actor (the chat's `chatStream` or `resumeStream`, the task editor's drafting stream)
 * that records each request in `list` and reports to the machine whatever the test sends through
 * the record, when the test sends it.
 */
export const recordedStream = <Request>(list: RecordedStream<Request>[]) =>
  fromCallback<{ type: 'noop' }, Request>(({ input, sendBack }) => {
    list.push({ request: input, report: (event) => sendBack(event as never) });
    return () => undefined;
  });
