// Runs before the first paint: applies the saved theme and language so nothing flashes.
(function () {
  var root = document.documentElement;
  var theme = 'light';
  try {
    var saved = JSON.parse(localStorage.getItem('ai-chat-ops:theme') || 'null');
    if (saved && (saved.value === 'dark' || saved.value === 'light' || saved.value === 'system')) theme = saved.value;
  } catch {
    // no storage: the default theme
  }
  var dark = theme === 'dark' || (theme === 'system' && window.matchMedia && matchMedia('(prefers-color-scheme: dark)').matches);
  root.classList.toggle('dark', dark);
  root.style.colorScheme = dark ? 'dark' : 'light';
  try {
    var locale = localStorage.getItem('umi_locale');
    if (locale) root.lang = locale;
  } catch {
    // no storage: the page's default language
  }
})();
