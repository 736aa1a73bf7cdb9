import type {LoadContext, Plugin} from '@docusaurus/types';

/** The colour-mode settings the guard follows (theme-classic's `themeConfig.colorMode`). */
export interface ColorModeSettings {
  defaultMode: 'light' | 'dark';
  respectPrefersColorScheme: boolean;
}

/**
 * The inline script that keeps `html[data-theme]` to `light` or `dark`.
 *
 * Why: theme-classic's own inline script copies the stored choice (`localStorage.theme`) or the
 * `?docusaurus-theme=` / `?docusaurus-data-theme=` query value into `data-theme` unchecked, so a
 * corrupted value (`{{bad`) reaches the attribute, and no colour mode's CSS applies. React's colour
 * mode state coerces such a value to `light` but never writes the attribute back.
 *
 * Input: the colour-mode settings. Output: JavaScript source (an IIFE) that, run after
 * theme-classic's script, replaces a `data-theme` other than `light`/`dark` with the mode the
 * theme would pick with no stored choice (the system's when `respectPrefersColorScheme`, else
 * `defaultMode`), and a `data-theme-choice` other than `light`/`dark`/`system` with the matching
 * choice. Errors: none (a browser without `matchMedia` gets `defaultMode`).
 */
export function colorModeGuardScript({defaultMode, respectPrefersColorScheme}: ColorModeSettings): string {
  const fallback = respectPrefersColorScheme
    ? `(window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : ${JSON.stringify(defaultMode)})`
    : JSON.stringify(defaultMode);
  const fallbackChoice = JSON.stringify(respectPrefersColorScheme ? 'system' : defaultMode);
  return `(function() {
  var html = document.documentElement;
  var mode = html.getAttribute('data-theme');
  if (mode !== 'light' && mode !== 'dark') {
    html.setAttribute('data-theme', ${fallback});
    html.setAttribute('data-theme-choice', ${fallbackChoice});
  }
  var choice = html.getAttribute('data-theme-choice');
  if (choice !== 'light' && choice !== 'dark' && choice !== 'system') html.setAttribute('data-theme-choice', ${fallbackChoice});
})();`;
}

/**
 * Docusaurus plugin `tango-color-mode-guard`: injects {@link colorModeGuardScript} at the start of
 * `<body>`, after theme-classic's colour-mode script (site plugins' tags follow the preset's).
 *
 * Input: the load context; the settings come from `siteConfig.themeConfig.colorMode`
 * (theme-classic's defaults, `light` and no system preference, where a field is missing).
 * Output: a plugin with `injectHtmlTags` returning one `preBodyTags` script. Errors: none.
 */
export default function colorModeGuardPlugin(context: LoadContext): Plugin {
  const colorMode = (context.siteConfig.themeConfig as {colorMode?: Partial<ColorModeSettings>}).colorMode ?? {};
  const settings: ColorModeSettings = {
    defaultMode: colorMode.defaultMode === 'dark' ? 'dark' : 'light',
    respectPrefersColorScheme: colorMode.respectPrefersColorScheme === true,
  };
  return {
    name: 'tango-color-mode-guard',
    injectHtmlTags() {
      return {preBodyTags: [{tagName: 'script', innerHTML: colorModeGuardScript(settings)}]};
    },
  };
}
