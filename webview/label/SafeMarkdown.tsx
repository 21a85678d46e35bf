// Markdown from a workspace file (the study's guidelines) shown the way documents are: no raw HTML, no links
// that navigate, no images that load (document/safeHtml.ts).
import { useMemo } from 'react';
import { markdownToSafeHtml } from './document/safeHtml.ts';

export function SafeMarkdown({ markdown }: { markdown: string }) {
  const html = useMemo(() => markdownToSafeHtml(markdown), [markdown]);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: markdownToSafeHtml escapes raw HTML and sanitises the rest
  return <div className="safe-markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
