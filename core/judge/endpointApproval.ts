// Which LLM endpoints the user has said Qrels Studio may send their study's queries and documents to. A study file
// names its judge's endpoint, and a study file can come from anyone (a cloned repository): running its judge must
// not send data to a server the user never chose. So the CLI calls only endpoints approved here or named on its
// command line (--allow-endpoint), and the VS Code extension asks once per endpoint and writes its answer to the
// same store — approving in one approves in the other.
//
// The store is one JSON file in the user's config folder, never in the workspace (a workspace file could approve
// its own endpoint): `<config dir>/qrels-studio/approved-endpoints.json`, where the config dir is $XDG_CONFIG_HOME or
// ~/.config on Linux and macOS and %APPDATA% on Windows; QRELS_STUDIO_CONFIG_DIR names the qrels-studio folder itself
// (tests). It is written atomically (a temporary file renamed over it), so a crash never leaves half a file.
// Endpoints are compared normalised: scheme, host and port (the scheme's default dropped) and path without a
// trailing slash, lower-case where URLs are case-insensitive; a query, fragment or user name is not part of it.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where the store is looked for: the process's by default; tests pass their own. */
export interface ApprovalStoreLocation {
  env?: Record<string, string | undefined>;
  platform?: NodeJS.Platform;
  home?: string;
}

export interface ApprovedEndpoint {
  /** Normalised (normaliseEndpoint). */
  url: string;
  /** UTC, ISO 8601. */
  approvedAt: string;
}

/** A URL that cannot be an endpoint, or a store that cannot be read or written: the message says which and why. */
export class EndpointApprovalError extends Error {
  override name = 'EndpointApprovalError';
}

interface StoreFile {
  version: 1;
  endpoints: ApprovedEndpoint[];
}

/** `http://Host:80/v1/` → `http://host/v1`; an error for anything but an http(s) URL with a host. */
export function normaliseEndpoint(url: string): string {
  const text = url.trim();
  if (!URL.canParse(text)) {
    throw new EndpointApprovalError(
      `expected an endpoint URL such as "https://api.openai.com/v1", found ${JSON.stringify(url)}`,
    );
  }
  const parsed = new URL(text);
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname === '') {
    throw new EndpointApprovalError(
      `expected an http(s) endpoint URL such as "https://api.openai.com/v1", found ${JSON.stringify(url)}`,
    );
  }
  // URL has already lower-cased the scheme and host and dropped a default port.
  const path = parsed.pathname.replace(/\/+$/, '');
  return `${parsed.protocol}//${parsed.host}${path}`;
}

/** The folder holding the store. */
export function approvalStoreFolder(location: ApprovalStoreLocation = {}): string {
  const env = location.env ?? process.env;
  const override = env.QRELS_STUDIO_CONFIG_DIR;
  if (override !== undefined && override !== '') return override;
  const platform = location.platform ?? process.platform;
  const home = location.home ?? homedir();
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'qrels-studio');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'qrels-studio');
}

/** The store's file. */
export function approvalStorePath(location: ApprovalStoreLocation = {}): string {
  return join(approvalStoreFolder(location), 'approved-endpoints.json');
}

/** The approved endpoints; none when there is no store yet. A store that is not ours is an error, never ignored. */
export function approvedEndpoints(location: ApprovalStoreLocation = {}): ApprovedEndpoint[] {
  const file = approvalStorePath(location);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new EndpointApprovalError(`cannot read the approved endpoints at ${file}: ${(error as Error).message}`);
  }
  let store: unknown;
  try {
    store = JSON.parse(text);
  } catch (error) {
    throw new EndpointApprovalError(
      `${file} is not JSON (${(error as Error).message}): fix it, or delete it and approve the endpoints again`,
    );
  }
  const endpoints = (store as Partial<StoreFile> | null)?.endpoints;
  if (
    !Array.isArray(endpoints) ||
    !endpoints.every((e) => typeof e?.url === 'string' && typeof e?.approvedAt === 'string')
  ) {
    throw new EndpointApprovalError(
      `${file}: expected {"version": 1, "endpoints": [{"url": …, "approvedAt": …}, …]}: fix it, or delete it and ` +
        'approve the endpoints again',
    );
  }
  return endpoints as ApprovedEndpoint[];
}

/** Whether `url` (normalised) is in the store. */
export function isEndpointApproved(url: string, location: ApprovalStoreLocation = {}): boolean {
  const wanted = normaliseEndpoint(url);
  return approvedEndpoints(location).some((endpoint) => endpoint.url === wanted);
}

/** Adds `url` (normalised) to the store, creating it if needed; approving one twice keeps the first approval. */
export function approveEndpoint(url: string, location: ApprovalStoreLocation & { now?: Date } = {}): ApprovedEndpoint {
  const normalised = normaliseEndpoint(url);
  const endpoints = approvedEndpoints(location);
  const known = endpoints.find((endpoint) => endpoint.url === normalised);
  if (known) return known;
  const approved: ApprovedEndpoint = { url: normalised, approvedAt: (location.now ?? new Date()).toISOString() };
  const store: StoreFile = { version: 1, endpoints: [...endpoints, approved] };
  const folder = approvalStoreFolder(location);
  const file = approvalStorePath(location);
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    mkdirSync(folder, { recursive: true });
    writeFileSync(temporary, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new EndpointApprovalError(`cannot write the approved endpoints to ${file}: ${(error as Error).message}`);
  }
  return approved;
}
