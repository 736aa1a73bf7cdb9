import {test} from 'node:test';
import assert from 'node:assert/strict';
import type {LoadContext} from '@docusaurus/types';
import colorModeGuardPlugin, {colorModeGuardScript, type ColorModeSettings} from '../../src/plugins/color-mode-guard.ts';

/** Runs the guard script against a stand-in `<html>` with these attributes; returns them after. */
function runGuard(settings: ColorModeSettings, attributes: Record<string, string | null>, systemDark = false) {
  const attrs = new Map(Object.entries(attributes));
  const documentElement = {
    getAttribute: (name: string) => attrs.get(name) ?? null,
    setAttribute: (name: string, value: string) => void attrs.set(name, value),
  };
  const window = {matchMedia: (query: string) => ({matches: systemDark && query === '(prefers-color-scheme: dark)'})};
  new Function('document', 'window', colorModeGuardScript(settings))({documentElement}, window);
  return Object.fromEntries(attrs);
}

const SYSTEM: ColorModeSettings = {defaultMode: 'light', respectPrefersColorScheme: true};

test('a corrupted data-theme becomes the mode the theme picks with no stored choice', () => {
  for (const bad of ['{{bad', '', 'system', 'LIGHT', '<img>', null]) {
    assert.deepEqual(
      runGuard(SYSTEM, {'data-theme': bad, 'data-theme-choice': bad}),
      {'data-theme': 'light', 'data-theme-choice': 'system'},
      String(bad),
    );
    assert.deepEqual(
      runGuard(SYSTEM, {'data-theme': bad, 'data-theme-choice': bad}, true),
      {'data-theme': 'dark', 'data-theme-choice': 'system'},
      String(bad),
    );
    assert.deepEqual(
      runGuard({defaultMode: 'dark', respectPrefersColorScheme: false}, {'data-theme': bad, 'data-theme-choice': bad}),
      {'data-theme': 'dark', 'data-theme-choice': 'dark'},
      String(bad),
    );
  }
});

test('valid modes and choices are left as they are', () => {
  for (const [mode, choice] of [
    ['light', 'light'],
    ['dark', 'dark'],
    ['dark', 'system'],
  ] as const) {
    assert.deepEqual(runGuard(SYSTEM, {'data-theme': mode, 'data-theme-choice': choice}), {
      'data-theme': mode,
      'data-theme-choice': choice,
    });
  }
  // A valid mode with a corrupted choice (?docusaurus-data-theme-choice=…): only the choice changes.
  assert.deepEqual(runGuard(SYSTEM, {'data-theme': 'dark', 'data-theme-choice': '{{bad'}), {
    'data-theme': 'dark',
    'data-theme-choice': 'system',
  });
});

test("the plugin injects the script at the start of <body>, with the site's colour-mode settings", async () => {
  const context = {
    siteConfig: {themeConfig: {colorMode: {defaultMode: 'dark', respectPrefersColorScheme: false}}},
  } as unknown as LoadContext;
  const plugin = colorModeGuardPlugin(context);
  assert.equal(plugin.name, 'tango-color-mode-guard');
  const tags = await plugin.injectHtmlTags!({content: undefined});
  assert.deepEqual(tags, {
    preBodyTags: [{tagName: 'script', innerHTML: colorModeGuardScript({defaultMode: 'dark', respectPrefersColorScheme: false})}],
  });
});
