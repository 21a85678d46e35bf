import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  describeCounting,
  encodingForModel,
  estimatedCharsPerToken,
  tokenCounter,
} from '../../../../core/judge/budget/tokenCount.ts';

// The known values are OpenAI's own, from its cookbook "How to count tokens with tiktoken": the token ids of
// "tiktoken is great!" in cl100k_base, and the prompt tokens the API reported for its example chat (129 for gpt-4 and
// gpt-3.5-turbo, 124 for gpt-4o and gpt-4o-mini).
const cookbookChat = [
  {
    role: 'system',
    content: 'You are a helpful, pattern-following assistant that translates corporate jargon into plain English.',
  },
  { role: 'system', name: 'example_user', content: 'New synergies will help drive top-line growth.' },
  { role: 'system', name: 'example_assistant', content: 'Things working well together will increase revenue.' },
  {
    role: 'system',
    name: 'example_user',
    content: "Let's circle back when we have more bandwidth to touch base on opportunities for increased leverage.",
  },
  {
    role: 'system',
    name: 'example_assistant',
    content: "Let's talk later when we're less busy about how to do better.",
  },
  {
    role: 'user',
    content: "This late pivot means we don't have time to boil the ocean for the client deliverable.",
  },
];

test('models map to their published encodings; fine-tunes to their base; others to none', () => {
  for (const model of ['gpt-4o', 'gpt-4o-mini-2024-07-18', 'gpt-4.1-mini', 'gpt-5', 'o3-mini', 'o1', 'o4-mini'])
    assert.equal(encodingForModel(model), 'o200k_base', model);
  for (const model of ['gpt-4', 'gpt-4-0613', 'gpt-4-turbo', 'gpt-3.5-turbo'])
    assert.equal(encodingForModel(model), 'cl100k_base', model);
  assert.equal(encodingForModel('ft:gpt-4o-mini-2024-07-18:acme::abc123'), 'o200k_base');
  for (const model of ['llama3.1:8b', 'qwen2.5-7b-instruct', 'my-azure-deployment', 'o1x', 'gpt-40'])
    assert.equal(encodingForModel(model), undefined, model);
});

test("cl100k_base counts the cookbook's example text as its 6 tokens", async () => {
  const counter = await tokenCounter('gpt-4');
  assert.deepEqual(counter.counting, { kind: 'encoding', encoding: 'cl100k_base' });
  assert.equal(counter.count('tiktoken is great!'), 6);
  assert.equal(counter.count(''), 0);
});

test("a chat request's input tokens equal what the API reported for the cookbook's example", async () => {
  assert.equal((await tokenCounter('gpt-4-0613')).countChat(cookbookChat), 129);
  assert.equal((await tokenCounter('gpt-3.5-turbo')).countChat(cookbookChat), 129);
  assert.equal((await tokenCounter('gpt-4o')).countChat(cookbookChat), 124);
  assert.equal((await tokenCounter('gpt-4o-mini')).countChat(cookbookChat), 124);
});

test('a model without a known tokenizer: characters over the stated ratio, rounded up, and said to be an estimate', async () => {
  const counter = await tokenCounter('llama3.1:8b');
  assert.deepEqual(counter.counting, { kind: 'estimate', charsPerToken: estimatedCharsPerToken });
  assert.equal(counter.count('abcdefg'), Math.ceil(7 / estimatedCharsPerToken));
  // Code points, not UTF-16 units: an emoji is one character.
  assert.equal(counter.count('😀😀😀'), 1);
  // Frame: 3 per message + the role + the content, 3 for the reply.
  assert.equal(counter.countChat([{ role: 'user', content: 'abcdef' }]), 3 + 2 + 2 + 3);
  assert.match(
    describeCounting(counter.counting, 'llama3.1:8b'),
    /^estimated at 3 characters per token \(no tokenizer known for llama3\.1:8b\)$/,
  );
  assert.equal(describeCounting({ kind: 'encoding', encoding: 'o200k_base' }, 'gpt-4o'), 'counted with o200k_base');
});

test('a text counted line by line (the lines remembered) counts exactly as the whole text, in both encodings', async () => {
  const { countTokens: o200k } = await import('gpt-tokenizer/encoding/o200k_base');
  const { countTokens: cl100k } = await import('gpt-tokenizer/encoding/cl100k_base');
  // Pieces that meet the pre-tokenisers' edge cases at line breaks: punctuation before and after, contractions,
  // slashes, digits, combining marks, spaces before a break or a word, CRLF, emoji and CJK.
  const pieces = [
    '\n',
    '\n\n',
    '\r\n',
    ' \n',
    '\n ',
    'word',
    'Word',
    ' the',
    '.',
    ':',
    '/',
    "'s",
    "'ll",
    '123',
    '4567',
    'e\u0301',
    '\u0301',
    '😀',
    '表格',
    ' ',
    '  ',
    '\t',
    '-',
    '**',
    '{{',
    '}}',
    '#',
    'Query',
    'x/y',
  ];
  let seed = 7;
  const next = () => {
    seed = (seed * 16807) % 2147483647;
    return seed;
  };
  for (const [model, whole] of [
    ['gpt-4o', o200k],
    ['gpt-4', cl100k],
  ] as const) {
    const counter = await tokenCounter(model);
    for (let round = 0; round < 400; round++) {
      const length = 1 + (next() % 40);
      let text = '';
      for (let i = 0; i < length; i++) text += pieces[next() % pieces.length];
      assert.equal(counter.count(text), whole(text), `${model}: ${JSON.stringify(text)} (seed ${seed})`);
      // Counted again: from the remembered lines.
      assert.equal(counter.count(text), whole(text));
    }
  }
});
