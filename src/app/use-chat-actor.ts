import { createChatActor, type ChatActor } from './chat-runtime';
import { useRuntime } from './runtime-context';

/** The chat actor, created by the first screen that needs it and kept for the app's life. */
export const useChatActor = (): ChatActor => useRuntime().attachChat(createChatActor);
