import { fromCallback, fromPromise } from 'xstate';
import { endingOf, type ChatStreamInput, type ChatStreamReport, type StreamEnding } from '../../src/machines/chat-stream.actor';

/** One stream a machine opened: what it asked, and a way for the test to answer as the server. */
export type RecordedStream<Request> = { request: Request; report: (event: ChatStreamReport) => void };

/**
 * A stream actor (the task editor's drafting stream) that records each request in `list` and
 * reports to the machine whatever the test sends through the record, when the test sends it.
 */
export const recordedStream = <Request>(list: RecordedStream<Request>[]) =>
  fromCallback<{ type: 'noop' }, Request>(({ input, sendBack }) => {
    list.push({ request: input, report: (event) => sendBack(event as never) });
    return () => undefined;
  });

/**
 * The chat's stream (`chatStream` or `resumeStream`), recorded likewise: what the test reports
 * while the answer is written goes to the chat as it does from the real stream, and the first
 * ending the test reports is how the stream ended (the actor's output).
 */
export const recordedChatStream = <Request>(list: RecordedStream<Request>[]) =>
  fromPromise<StreamEnding, ChatStreamInput<Request>>(
    ({ input }) =>
      new Promise<StreamEnding>((resolve) => {
        list.push({
          request: input.request,
          report: (event) => {
            if (event.type === 'stream.accepted' || event.type === 'stream.delta' || event.type === 'stream.resumed') input.reportTo.send(event);
            else resolve(endingOf(event));
          },
        });
      }),
  );
