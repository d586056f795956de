import presetIcons from '@unocss/preset-icons';
import presetWind3 from '@unocss/preset-wind3';
import { defineConfig } from 'unocss';

/**
 * Colours are CSS variables set per theme in `src/styles/theme.css`, so one class works in light
 * and dark and the theme switches without re-rendering. The variables hold channel triplets
 * ("180 35 24") so an opacity modifier (`bg-danger/10`) becomes `rgb(var(--c-danger) / 0.1)`;
 * a plain `var(--c-danger)` would drop the opacity and paint the colour solid.
 */
export default defineConfig({
  presets: [presetWind3({ dark: 'class' }), presetIcons({ scale: 1.1, extraProperties: { display: 'inline-block', 'vertical-align': 'middle' } })],
  theme: {
    colors: {
      bg: 'rgb(var(--c-bg) / <alpha-value>)',
      surface: 'rgb(var(--c-surface) / <alpha-value>)',
      raised: 'rgb(var(--c-raised) / <alpha-value>)',
      fg: 'rgb(var(--c-fg) / <alpha-value>)',
      muted: 'rgb(var(--c-muted) / <alpha-value>)',
      line: 'rgb(var(--c-line) / <alpha-value>)',
      accent: 'rgb(var(--c-accent) / <alpha-value>)',
      'accent-fg': 'rgb(var(--c-accent-fg) / <alpha-value>)',
      danger: 'rgb(var(--c-danger) / <alpha-value>)',
      success: 'rgb(var(--c-success) / <alpha-value>)',
      warn: 'rgb(var(--c-warn) / <alpha-value>)',
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
