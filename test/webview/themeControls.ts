// The theme a webview is shown in, set the way VS Code sets it (every colour variable on <html> through the CSSOM,
// the theme's kind as a class of <body>), and a check that every native control on the page is painted only in the
// theme's colours: no browser default (a light grey button, a white select, a radio the browser draws) is left.
import type { Page } from 'playwright-core';

export interface WebviewTheme {
  /** The class VS Code puts on <body>. */
  kind: 'vscode-dark' | 'vscode-light';
  /** The colour variables the controls use, as VS Code sets them. */
  colours: Record<string, string>;
}

/** VS Code's Dark Modern theme. */
export const darkModern: WebviewTheme = {
  kind: 'vscode-dark',
  colours: {
    '--vscode-foreground': '#cccccc',
    '--vscode-descriptionForeground': '#9d9d9d',
    '--vscode-editor-background': '#1f1f1f',
    '--vscode-panel-border': '#2b2b2b',
    '--vscode-textLink-foreground': '#4daafc',
    '--vscode-focusBorder': '#0078d4',
    '--vscode-button-background': '#0078d4',
    '--vscode-button-foreground': '#ffffff',
    '--vscode-button-hoverBackground': '#026ec1',
    '--vscode-button-border': '#ffffff12',
    '--vscode-button-secondaryBackground': '#313131',
    '--vscode-button-secondaryForeground': '#cccccc',
    '--vscode-button-secondaryHoverBackground': '#3c3c3c',
    '--vscode-input-background': '#313131',
    '--vscode-input-foreground': '#cccccc',
    '--vscode-input-border': '#3c3c3c',
    '--vscode-dropdown-background': '#313131',
    '--vscode-dropdown-foreground': '#cccccc',
    '--vscode-dropdown-border': '#3c3c3c',
    '--vscode-checkbox-background': '#313131',
    '--vscode-checkbox-foreground': '#cccccc',
    '--vscode-checkbox-border': '#3c3c3c',
  },
};

/** VS Code's Light Modern theme. */
export const lightModern: WebviewTheme = {
  kind: 'vscode-light',
  colours: {
    '--vscode-foreground': '#3b3b3b',
    '--vscode-descriptionForeground': '#717171',
    '--vscode-editor-background': '#ffffff',
    '--vscode-panel-border': '#e5e5e5',
    '--vscode-textLink-foreground': '#005fb8',
    '--vscode-focusBorder': '#005fb8',
    '--vscode-button-background': '#005fb8',
    '--vscode-button-foreground': '#ffffff',
    '--vscode-button-hoverBackground': '#0258a8',
    '--vscode-button-border': '#0000001a',
    '--vscode-button-secondaryBackground': '#e5e5e5',
    '--vscode-button-secondaryForeground': '#3b3b3b',
    '--vscode-button-secondaryHoverBackground': '#cccccc',
    '--vscode-input-background': '#ffffff',
    '--vscode-input-foreground': '#3b3b3b',
    '--vscode-input-border': '#cecece',
    '--vscode-dropdown-background': '#ffffff',
    '--vscode-dropdown-foreground': '#3b3b3b',
    '--vscode-dropdown-border': '#cecece',
    '--vscode-checkbox-background': '#f8f8f8',
    '--vscode-checkbox-foreground': '#3b3b3b',
    '--vscode-checkbox-border': '#cecece',
  },
};

/** `#rrggbb` as getComputedStyle prints it: `rgb(r, g, b)`. */
export function rgb(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}

export async function applyTheme(page: Page, theme: WebviewTheme): Promise<void> {
  await page.evaluate((t) => {
    for (const [name, value] of Object.entries(t.colours)) document.documentElement.style.setProperty(name, value);
    document.body.classList.remove('vscode-dark', 'vscode-light');
    document.body.classList.add(t.kind);
  }, theme);
}

/**
 * What on the page is not painted in the theme's colours, one line each (none: every control follows the theme):
 * each button, select, input and textarea — its text colour, its background unless transparent, each border it
 * draws; a checkbox or radio must be drawn by CSS (`appearance: none`), since the browser paints a native one in its
 * own colours whatever its CSS says — and the page's colour scheme (scrollbars, a select's open list).
 */
export async function offTheme(page: Page, theme: WebviewTheme): Promise<string[]> {
  return page.evaluate((t) => {
    const probe = document.createElement('div');
    document.body.append(probe);
    const palette = new Set(
      Object.values(t.colours).map((value) => {
        probe.style.color = value;
        return getComputedStyle(probe).color;
      }),
    );
    probe.remove();
    const transparent = 'rgba(0, 0, 0, 0)';
    const found: string[] = [];
    const scheme = getComputedStyle(document.documentElement).colorScheme;
    const wanted = t.kind === 'vscode-dark' ? 'dark' : 'light';
    if (scheme !== wanted) found.push(`the page's color-scheme is '${scheme}', not '${wanted}'`);
    for (const control of document.querySelectorAll<HTMLElement>('button, select, input, textarea')) {
      if (control.getClientRects().length === 0) continue;
      const style = getComputedStyle(control);
      const type = control instanceof HTMLInputElement ? control.type : '';
      const name = `${control.tagName.toLowerCase()}${type ? `[type=${type}]` : ''} "${(control.textContent || control.getAttribute('aria-label') || control.getAttribute('data-testid') || '').trim().slice(0, 40)}"`;
      if ((type === 'checkbox' || type === 'radio') && style.appearance !== 'none') {
        found.push(`${name}: drawn by the browser (appearance: ${style.appearance})`);
      }
      if (!palette.has(style.color)) found.push(`${name}: color ${style.color}`);
      if (style.backgroundColor !== transparent && !palette.has(style.backgroundColor)) {
        found.push(`${name}: background ${style.backgroundColor}`);
      }
      for (const side of ['Top', 'Right', 'Bottom', 'Left'] as const) {
        const width = Number.parseFloat(style.getPropertyValue(`border-${side.toLowerCase()}-width`));
        const borderStyle = style.getPropertyValue(`border-${side.toLowerCase()}-style`);
        const colour = style.getPropertyValue(`border-${side.toLowerCase()}-color`);
        if (width > 0 && borderStyle !== 'none' && colour !== transparent && !palette.has(colour)) {
          found.push(`${name}: border-${side.toLowerCase()} ${colour}`);
        }
      }
    }
    return found;
  }, theme);
}
