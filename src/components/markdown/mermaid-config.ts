import type { MermaidConfig } from 'mermaid';

/**
 * Mermaid's settings for diagrams an agent wrote, which an attacker may have written: strict
 * security (no click callbacks, links sanitised, labels as SVG text, never HTML), bounded input,
 * and every setting that touches labels, styles or security locked against the diagram's own
 * `%%{init: …}%%` directives.
 */
export const diagramConfig = (dark: boolean): MermaidConfig => ({
  startOnLoad: false,
  securityLevel: 'strict',
  htmlLabels: false,
  flowchart: { htmlLabels: false },
  theme: dark ? 'dark' : 'default',
  maxTextSize: 20_000,
  maxEdges: 300,
  suppressErrorRendering: true,
  secure: [
    'secure',
    'securityLevel',
    'startOnLoad',
    'maxTextSize',
    'maxEdges',
    'suppressErrorRendering',
    'htmlLabels',
    'flowchart',
    'theme',
    'themeCSS',
    'themeVariables',
    'fontFamily',
    'altFontFamily',
    'dompurifyConfig',
    'darkMode',
  ],
});
