import { describe, expect, it } from 'vitest';
import { CHAT_DRAFTS_KEY, forgetPersonalPreferences, readPreference, writePreference } from './storage';

describe('per-user preferences at sign-out', () => {
  it("takes away what the person wrote and opened, and keeps how the page looks", () => {
    writePreference(CHAT_DRAFTS_KEY, 'ada', { 'conv-1': { text: 'half a secret', at: 1 } });
    writePreference('lastChatId', 'ada', 'conv-1');
    writePreference('lastAgentId', 'ada', 'baker');
    writePreference('lastAgentInfo', 'ada', { agentId: 'baker', name: 'Baker' });
    writePreference('theme', 'ada', 'dark');
    writePreference('firstPage', 'ada', 'last');

    forgetPersonalPreferences('ada');

    // gone from the browser, not only unreadable for someone else: DevTools shows nothing of it
    expect(Object.keys(localStorage).sort()).toEqual(['ai-chat-ops:firstPage', 'ai-chat-ops:theme']);
    expect(JSON.stringify(localStorage)).not.toContain('half a secret');
    expect(readPreference('theme', 'ada')).toBe('dark');
    expect(readPreference('firstPage', 'ada')).toBe('last');
  });

  it("leaves what belongs to someone else (a visitor's drafts in this browser)", () => {
    writePreference(CHAT_DRAFTS_KEY, 'visitor', { 'new:SpecialNoAgentFallback': { text: 'from the visitor', at: 1 } });
    writePreference('lastChatId', 'ada', 'conv-1');
    localStorage.setItem('ai-chat-ops:lastAgentId', 'not JSON');

    forgetPersonalPreferences('ada');

    expect(readPreference(CHAT_DRAFTS_KEY, 'visitor')).toEqual({ 'new:SpecialNoAgentFallback': { text: 'from the visitor', at: 1 } });
    expect(localStorage.getItem('ai-chat-ops:lastChatId')).toBeNull();
    expect(localStorage.getItem('ai-chat-ops:lastAgentId')).toBe('not JSON');
  });
});
