// Runs before the first paint: applies the saved theme and language so nothing flashes.
// The theme is stored per user by the preferences machine as {"userId": ..., "value": ...} under
// "ai-chat-ops:theme". Who is here is not known yet, only whether a session cookie exists: a
// signed-in user's choice is used only with one; a visitor's always (it carries into an account).
(function () {
  var root = document.documentElement;
  var theme = 'system';
  try {
    var signedIn = /(?:^|;\s*)ai-chat-ops-token=[^;]/.test(document.cookie);
    var saved = JSON.parse(localStorage.getItem('ai-chat-ops:theme') || 'null');
    // A visitor's choice carries into an account that has none saved here.
    var ownerMatches = saved && (signedIn || saved.userId === 'visitor');
    if (ownerMatches && (saved.value === 'dark' || saved.value === 'light' || saved.value === 'system')) theme = saved.value;
  } catch {
    // no storage: the default theme, the device's
  }
  var dark = theme === 'dark' || (theme === 'system' && window.matchMedia && matchMedia('(prefers-color-scheme: dark)').matches);
  root.classList.toggle('dark', dark);
  root.style.colorScheme = dark ? 'dark' : 'light';
  try {
    // Only the five languages the product has (src/i18n/locale.ts); any other falls back later.
    var locale = localStorage.getItem('umi_locale');
    if (['zh-CN', 'en-US', 'fr-FR', 'de-DE', 'ja'].indexOf(locale) >= 0) root.lang = locale;
  } catch {
    // no storage: the page's default language
  }
})();
