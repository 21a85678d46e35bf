// The approval store on real files in a scratch folder: where it lives on each platform, what counts as the same
// endpoint, approving (atomically, once), and a store that is not ours being an error rather than silently empty.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  approvalStorePath,
  approvedEndpoints,
  approveEndpoint,
  EndpointApprovalError,
  isEndpointApproved,
  normaliseEndpoint,
} from '../../../core/judge/endpointApproval.ts';
import { scratchDir } from '../../helpers.ts';

test('the store lives in the user config folder of each platform, or where QRELS_STUDIO_CONFIG_DIR says', () => {
  assert.equal(
    approvalStorePath({ env: {}, platform: 'linux', home: '/home/ann' }),
    '/home/ann/.config/qrels-studio/approved-endpoints.json',
  );
  assert.equal(
    approvalStorePath({ env: { XDG_CONFIG_HOME: '/xdg' }, platform: 'darwin', home: '/Users/ann' }),
    '/xdg/qrels-studio/approved-endpoints.json',
  );
  assert.equal(
    approvalStorePath({ env: { APPDATA: '/appdata' }, platform: 'win32', home: '/home/ann' }),
    join('/appdata', 'qrels-studio', 'approved-endpoints.json'),
  );
  assert.equal(
    approvalStorePath({ env: { QRELS_STUDIO_CONFIG_DIR: '/tmp/qs', XDG_CONFIG_HOME: '/xdg' }, platform: 'linux' }),
    '/tmp/qs/approved-endpoints.json',
  );
});

test('endpoints are compared by scheme, host, port and path, without a trailing slash, query or user', () => {
  assert.equal(normaliseEndpoint('HTTPS://API.OpenAI.com:443/v1/'), 'https://api.openai.com/v1');
  assert.equal(normaliseEndpoint(' http://127.0.0.1:8000/v1// '), 'http://127.0.0.1:8000/v1');
  assert.equal(normaliseEndpoint('http://localhost:80'), 'http://localhost');
  assert.equal(normaliseEndpoint('http://me:secret@host:11434/v1?x=1#y'), 'http://host:11434/v1');
  // A different port, scheme or path is a different endpoint.
  assert.notEqual(normaliseEndpoint('http://host:8000/v1'), normaliseEndpoint('http://host:8001/v1'));
  assert.notEqual(normaliseEndpoint('http://host/v1'), normaliseEndpoint('https://host/v1'));
  assert.notEqual(normaliseEndpoint('http://host/v1'), normaliseEndpoint('http://host/v2'));
  assert.throws(
    () => normaliseEndpoint('api.openai.com/v1'),
    /expected an endpoint URL .*found "api\.openai\.com\/v1"/,
  );
  assert.throws(() => normaliseEndpoint('file:///etc/passwd'), /expected an http\(s\) endpoint URL/);
  assert.throws(() => normaliseEndpoint(''), EndpointApprovalError);
});

test('approving writes the store atomically once; the same endpoint written differently is approved too', () => {
  const folder = scratchDir();
  const location = { env: { QRELS_STUDIO_CONFIG_DIR: join(folder, 'config') } };
  assert.deepEqual(approvedEndpoints(location), [], 'no store yet: nothing approved');
  assert.equal(isEndpointApproved('http://127.0.0.1:9999/v1', location), false);
  const first = approveEndpoint('http://127.0.0.1:9999/v1/', { ...location, now: new Date('2026-01-02T03:04:05Z') });
  assert.deepEqual(first, { url: 'http://127.0.0.1:9999/v1', approvedAt: '2026-01-02T03:04:05.000Z' });
  assert.equal(isEndpointApproved('HTTP://127.0.0.1:9999/v1', location), true);
  assert.equal(isEndpointApproved('http://127.0.0.1:9998/v1', location), false);
  // Approving again changes nothing; a second endpoint is added after the first.
  approveEndpoint('http://127.0.0.1:9999/v1', location);
  approveEndpoint('https://api.example.com/v1', { ...location, now: new Date('2026-02-01T00:00:00Z') });
  const store = JSON.parse(readFileSync(approvalStorePath(location), 'utf8'));
  assert.deepEqual(store, {
    version: 1,
    endpoints: [
      { url: 'http://127.0.0.1:9999/v1', approvedAt: '2026-01-02T03:04:05.000Z' },
      { url: 'https://api.example.com/v1', approvedAt: '2026-02-01T00:00:00.000Z' },
    ],
  });
  assert.deepEqual(readdirSync(join(folder, 'config')), ['approved-endpoints.json'], 'no temporary file left');
});

test('a store that is not ours is an error naming the file, never an empty approval list', () => {
  const folder = scratchDir();
  const location = { env: { QRELS_STUDIO_CONFIG_DIR: folder } };
  writeFileSync(join(folder, 'approved-endpoints.json'), '{"endpoints": [');
  assert.throws(() => isEndpointApproved('http://x/v1', location), /approved-endpoints\.json is not JSON/);
  writeFileSync(join(folder, 'approved-endpoints.json'), '{"endpoints": ["http://x/v1"]}');
  assert.throws(() => isEndpointApproved('http://x/v1', location), /approved-endpoints\.json: expected \{"version": 1/);
  assert.throws(() => approveEndpoint('http://x/v1', location), EndpointApprovalError);
  assert.equal(readFileSync(join(folder, 'approved-endpoints.json'), 'utf8'), '{"endpoints": ["http://x/v1"]}');
});
