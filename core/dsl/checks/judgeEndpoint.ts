import { statementsOf } from '../ast.ts';
import { eachBlock, type StudyCheck } from './check.ts';

function isHttpUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

export const judgeEndpoint: StudyCheck = {
  code: 'judge-endpoint',
  severity: 'error',
  description: 'The judge endpoint must be an http(s) URL: the base URL of an OpenAI-compatible API.',
  check(context) {
    eachBlock(context, (block, report) => {
      for (const judge of statementsOf(block, 'judge')) {
        for (const option of judge.options) {
          if (
            option.name !== 'endpoint' ||
            !option.value ||
            !('value' in option.value) ||
            typeof option.value.value !== 'string'
          )
            continue;
          const url = option.value.value;
          if (isHttpUrl(url)) continue;
          const withScheme = `https://${url}`;
          const fixable = !/^[a-z][a-z0-9+.-]*:/i.test(url) && isHttpUrl(withScheme);
          report({
            range: option.value.range,
            message: `expected an http(s) URL after \`endpoint\` (such as "https://api.openai.com/v1"), found ${JSON.stringify(url)}`,
            ...(fixable && {
              fixes: [
                {
                  title: `Use ${JSON.stringify(withScheme)}`,
                  edits: [{ range: option.value.range, newText: JSON.stringify(withScheme) }],
                },
              ],
            }),
          });
        }
      }
    });
  },
};
