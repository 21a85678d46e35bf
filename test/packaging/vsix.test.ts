// The packaged .vsix (dist/qrels-studio.vsix, built by `npm run package`) as a marketplace receives it: read from
// the zip itself (its central directory, entries inflated with node:zlib), not from the sources it was built from.
// What the Visual Studio Marketplace and Open VSX need to list it: an icon (a PNG, 128 px), the repository with
// homepage and bugs beside it, keywords (at most 30), a changelog, the licence and the README, no proposed API.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { inflateRawSync } from 'node:zlib';
import { distDir } from '../helpers.ts';

const vsixPath = join(distDir, 'qrels-studio.vsix');

/** Every file of a zip archive by name (stored or deflated entries, which is what vsce writes). */
function readZip(zip: Buffer): Map<string, Buffer> {
  // The end of central directory record: its signature within the last 64 KiB + 22 bytes (a comment may follow it).
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(eocd >= 0, 'not a zip file: no end of central directory record');
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    assert.equal(zip.readUInt32LE(at), 0x02014b50, `central directory entry ${i}: bad signature`);
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localHeader = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    // The data follows the local header, whose own name and extra field may differ in length from the central one's.
    const dataStart = localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
    const data = zip.subarray(dataStart, dataStart + compressedSize);
    assert.ok(method === 0 || method === 8, `${name}: compression method ${method}`);
    files.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'not a PNG');
  assert.equal(png.toString('latin1', 12, 16), 'IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

test('the .vsix holds what a marketplace needs: icon, repository, homepage, bugs, keywords, changelog, licence, README', () => {
  assert.ok(existsSync(vsixPath), `${vsixPath} is missing: build it with \`npm run package\` (\`npm test\` does)`);
  const files = readZip(readFileSync(vsixPath));
  // vsce stores README.md as readme.md, CHANGELOG.md as changelog.md and LICENSE as LICENSE.txt.
  const text = (...names: string[]): string | undefined => {
    const wanted = names.map((n) => `extension/${n}`.toLowerCase());
    const name = [...files.keys()].find((f) => wanted.includes(f.toLowerCase()));
    return name === undefined ? undefined : files.get(name)!.toString('utf8');
  };
  const manifest = JSON.parse(text('package.json')!);

  // The icon: a PNG (neither marketplace takes an SVG), 128 × 128, in the package.
  assert.equal(manifest.icon, 'media/icon.png');
  const icon = files.get(`extension/${manifest.icon}`);
  assert.ok(icon, `${manifest.icon} is not in the .vsix`);
  assert.deepEqual(pngSize(icon), { width: 128, height: 128 });

  // The repository, and a homepage and an issue tracker in it.
  assert.equal(manifest.repository?.type, 'git');
  const repository = /^https:\/\/github\.com\/([\w.-]+)\/([\w.-]+?)\.git$/.exec(manifest.repository?.url ?? '');
  assert.ok(repository, `repository.url: ${manifest.repository?.url}`);
  const repositoryPage = `https://github.com/${repository[1]}/${repository[2]}`;
  assert.equal(repository[1], manifest.publisher, 'the repository is under the publisher id');
  assert.equal(manifest.homepage, `${repositoryPage}#readme`);
  assert.equal(manifest.bugs?.url, `${repositoryPage}/issues`);

  // Keywords people search for; the Marketplace takes at most 30.
  const keywords: string[] = manifest.keywords ?? [];
  assert.ok(keywords.length >= 5 && keywords.length <= 30, `${keywords.length} keywords`);
  assert.equal(new Set(keywords.map((k) => k.toLowerCase())).size, keywords.length, 'keywords are unique');
  for (const expected of ['trec_eval', 'qrels', 'relevance judgments', 'inter-annotator agreement', 'llm-as-judge']) {
    assert.ok(keywords.includes(expected), `keyword '${expected}' is missing: ${keywords.join(', ')}`);
  }

  // The changelog (Keep a Changelog), the licence and the README; the README says what leaves the machine.
  const changelog = text('CHANGELOG.md');
  assert.ok(changelog, 'CHANGELOG.md is not in the .vsix');
  assert.match(changelog, /^# Changelog\n/);
  assert.match(changelog, /keepachangelog\.com/);
  assert.match(changelog, /^## \[Unreleased\]$/m);
  const license = text('LICENSE', 'LICENSE.txt');
  assert.ok(license, 'no LICENSE in the .vsix');
  assert.match(license, new RegExp(`^${manifest.license} License`));
  const readme = text('README.md');
  assert.ok(readme, 'README.md is not in the .vsix');
  assert.match(readme, /no telemetry/i);

  // The listing's manifest names the same assets and links.
  const vsixManifest = files.get('extension.vsixmanifest')!.toString('utf8');
  for (const [asset, path] of [
    ['Icons.Default', 'media/icon.png'],
    ['Content.Changelog', 'changelog.md'],
    ['Content.License', 'license.txt'],
    ['Content.Details', 'readme.md'],
  ] as const) {
    const entry = new RegExp(
      `Type="Microsoft\\.VisualStudio\\.Services\\.${asset.replace('.', '\\.')}" Path="extension/([^"]+)"`,
    );
    assert.equal(entry.exec(vsixManifest)?.[1]?.toLowerCase(), path, `extension.vsixmanifest's ${asset}`);
  }
  assert.ok(
    vsixManifest.includes(`Id="Microsoft.VisualStudio.Services.Links.Source" Value="${manifest.repository.url}"`),
  );

  // What Open VSX's server checks before it lists a version (ExtensionValidator.validateMetadata and the names):
  // names of word characters, a version of letters, digits and $+-,.:;_, no control or format characters, fields
  // within their limits, URLs with a host.
  assert.match(manifest.name, /^[\w\-+$~]+$/);
  assert.match(manifest.publisher, /^[\w\-+$~]+$/);
  assert.match(manifest.version, /^[\p{L}\p{N}$+\-,.:;_]+$/u);
  const fields: [string, string, number][] = [
    ['displayName', manifest.displayName, 255],
    ['description', manifest.description, 2048],
    ['license', manifest.license, 255],
    ...keywords.map((k): [string, string, number] => ['keywords', k, 255]),
    ...(manifest.categories as string[]).map((c): [string, string, number] => ['categories', c, 255]),
  ];
  for (const [field, value, limit] of fields) {
    assert.ok(value.length > 0 && value.length <= limit, `${field}: ${value.length} characters`);
    assert.doesNotMatch(value, /[\p{Cc}\p{Cf}\p{Cn}\p{Co}\p{Zl}\p{Zp}]/u, `${field}: a control or format character`);
  }
  for (const url of [manifest.homepage, manifest.repository.url, manifest.bugs.url]) {
    assert.ok(new URL(url).host.length > 0 && url.length <= 255, url);
  }

  // Neither marketplace publishes an extension that uses proposed API, and the build bypasses no check.
  assert.equal(manifest.enabledApiProposals, undefined);
  assert.doesNotMatch(manifest.scripts.package, /--allow-missing-repository/);
});
