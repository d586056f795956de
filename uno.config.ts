import presetIcons from '@unocss/preset-icons';
import presetWind3 from '@unocss/preset-wind3';
import { defineConfig } from 'unocss';

/**
 * Colours are CSS variables set per theme in `src/styles/theme.css`, so one class works in light
 * and dark and the theme switches without re-rendering.
 */
export default defineConfig({
  presets: [presetWind3({ dark: 'class' }), presetIcons({ scale: 1.1, extraProperties: { display: 'inline-block', 'vertical-align': 'middle' } })],
  theme: {
    colors: {
      bg: 'var(--c-bg)',
      surface: 'var(--c-surface)',
      raised: 'var(--c-raised)',
      fg: 'var(--c-fg)',
      muted: 'var(--c-muted)',
      line: 'var(--c-line)',
      accent: 'var(--c-accent)',
      'accent-fg': 'var(--c-accent-fg)',
      danger: 'var(--c-danger)',
      success: 'var(--c-success)',
      warn: 'var(--c-warn)',
    },
  },
  shortcuts: {
    btn: 'inline-flex items-center justify-center gap-2 rounded-lg px-3 py-2 text-sm font-medium transition-colors disabled:opacity-50 disabled:cursor-not-allowed focus-visible:outline-2 focus-visible:outline-accent focus-visible:outline-offset-2',
    'btn-primary': 'btn bg-accent text-accent-fg hover:opacity-90',
    'btn-ghost': 'btn text-fg hover:bg-raised',
    'btn-outline': 'btn border border-line text-fg hover:bg-raised',
    field: 'w-full rounded-lg border border-line bg-surface px-3 py-2 text-fg placeholder:text-muted focus-visible:outline-2 focus-visible:outline-accent',
  },
});
