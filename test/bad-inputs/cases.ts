import { deflateSync } from 'node:zlib';

/**
 * The bad-input corpus, one table per boundary. Each case names the field the error must name (`field`:
 * a substring of the error's field or message). Extend a table to extend the corpus; the count per boundary
 * is printed by bad-inputs.test.ts and recorded in the README.
 */
export interface BadCase<T> {
  name: string;
  input: T;
  field: string;
}

const SQL = [
  `'; drop table cycles; --`,
  `1' or '1'='1`,
  `x"); delete from rollouts where ("1"="1`,
  `$$; truncate steps; $$`,
  `\\'; select pg_sleep(10); --`,
  `robert'); drop table queries;--`,
  `/* */ union select password from pg_shadow --`,
  `E'\\x00'`,
];
export { SQL as SQL_STRINGS };

/** Environment variables (cli/config.ts loadConfig). */
export const CONFIG_CASES: BadCase<Record<string, string>>[] = [
  ...['mysql://x/y', 'http://db', 'not a url', 'postgres:/missing-slash', `postgres${SQL[0]}`].map((v) => ({ name: `DATABASE_URL=${v}`, input: { DATABASE_URL: v }, field: 'DATABASE_URL' })),
  ...['TRAJFORGE_POSTGRES_PORT', 'TRAJFORGE_TEMPORAL_PORT', 'TRAJFORGE_TEMPORAL_UI_PORT'].flatMap((k) =>
    ['abc', '0', '70000', '-1', '1.5', 'NaN'].map((v) => ({ name: `${k}=${v}`, input: { [k]: v }, field: k })),
  ),
  ...['s3://', 's3://A_B', 'ftp://bucket', 's3://x', `s3://b${SQL[1]}`, 's3://-bucket-'].map((v) => ({ name: `BLOB_STORE=${v}`, input: { BLOB_STORE: v }, field: 'BLOB_STORE' })),
  ...['not-a-url', '//x', 'http//x'].map((v) => ({ name: `S3_ENDPOINT=${v}`, input: { S3_ENDPOINT: v }, field: 'S3_ENDPOINT' })),
  ...['maybe', '2', 'on'].map((v) => ({ name: `S3_FORCE_PATH_STYLE=${v}`, input: { S3_FORCE_PATH_STYLE: v }, field: 'S3_FORCE_PATH_STYLE' })),
  ...['0', '65', 'abc', '2.5'].map((v) => ({ name: `TRAJFORGE_ENV_SESSIONS=${v}`, input: { TRAJFORGE_ENV_SESSIONS: v }, field: 'TRAJFORGE_ENV_SESSIONS' })),
  ...['0', '-3', 'abc', '1e9', '2.5'].map((v) => ({ name: `TRAJFORGE_QUERIES=${v}`, input: { TRAJFORGE_QUERIES: v }, field: 'TRAJFORGE_QUERIES' })),
  ...['0', '65', 'x'].map((v) => ({ name: `TRAJFORGE_ATTEMPTS=${v}`, input: { TRAJFORGE_ATTEMPTS: v }, field: 'ATTEMPTS' })),
  ...['0', '101', 'many'].map((v) => ({ name: `TRAJFORGE_MAX_STEPS=${v}`, input: { TRAJFORGE_MAX_STEPS: v }, field: 'MAX_STEPS' })),
  ...['1.5', 'abc'].map((v) => ({ name: `TRAJFORGE_SEED=${v}`, input: { TRAJFORGE_SEED: v }, field: 'SEED' })),
  ...['0', '-5', '1.5', 'abc'].map((v) => ({ name: `TRAJFORGE_MODEL_TIMEOUT_MS=${v}`, input: { TRAJFORGE_MODEL_TIMEOUT_MS: v }, field: 'TIMEOUT_MS' })),
  { name: 'TRAJFORGE_POLICY_TIMEOUT_MS=0.5', input: { TRAJFORGE_POLICY_TIMEOUT_MS: '0.5' }, field: 'TRAJFORGE_POLICY_TIMEOUT_MS' },
  ...['hot', '-1', '3'].map((v) => ({ name: `TRAJFORGE_POLICY_TEMPERATURE=${v}`, input: { TRAJFORGE_POLICY_TEMPERATURE: v }, field: 'POLICY_TEMPERATURE' })),
  { name: 'price in without out', input: { TRAJFORGE_POLICY_BASE_URL: 'http://127.0.0.1:9/v1', TRAJFORGE_POLICY_PRICE_IN: '1' }, field: 'PRICE_OUT' },
  { name: 'price without endpoint', input: { TRAJFORGE_POLICY_PRICE_IN: '1', TRAJFORGE_POLICY_PRICE_OUT: '2' }, field: 'BASE_URL' },
  { name: 'TRAJFORGE_MODEL_PRICE_IN=cheap', input: { TRAJFORGE_MODEL_PRICE_IN: 'cheap' }, field: 'TRAJFORGE_MODEL_PRICE_IN' },
];

/** Command lines (spawned `trajforge …`; exit code must be non-zero and stderr must name the field). */
export const CLI_CASES: BadCase<string[]>[] = [
  { name: 'cycle --queries abc', input: ['cycle', '--queries', 'abc'], field: 'queries' },
  { name: 'cycle --mode bogus', input: ['cycle', '--mode', 'bogus'], field: 'agentMode' },
  { name: 'cycle --trajectory-tau-c 2', input: ['cycle', '--trajectory-tau-c', '2'], field: 'trajectoryTauC' },
  { name: 'cycle --learned-consensus maybe', input: ['cycle', '--learned-consensus', 'maybe'], field: 'consensus' },
  { name: 'cycle --no-such-flag', input: ['cycle', '--no-such-flag'], field: '--no-such-flag' },
  { name: 'worker --queues main,gpu', input: ['worker', '--queues', 'main,gpu'], field: '--queues' },
  { name: 'stop --please', input: ['stop', '--please'], field: '--please' },
];

/** A valid base for DAG mutations (the shape of environments/apps/*.dag.json). */
export const BASE_DAG = {
  app: 'demo',
  version: '1',
  title: 'Demo',
  startPage: 'home',
  pages: [
    { id: 'home', description: 'start', marker: 'Home', slots: [{ key: 'dish', description: 'a dish', values: ['soup'] }] },
    { id: 'cart', description: 'the cart', marker: 'Cart' },
  ],
  transitions: [{ from: 'home', to: 'cart', action: 'tap cart', control: 'Cart' }],
  tasks: [{ id: 'order', description: 'order', path: ['home', 'cart'], templates: ['Order {dish}'] }],
};
type Dag = typeof BASE_DAG;
const dag = (name: string, field: string, mutate: (d: Dag) => unknown): BadCase<unknown> => ({ name, field, input: mutate(structuredClone(BASE_DAG)) });
const set = <T>(d: T, f: (d: T) => void): T => (f(d), d);

/** App DAG files (domain/dag.ts AppDag, what `trajforge dag validate` and the query generator read). */
export const DAG_CASES: BadCase<unknown>[] = [
  dag('not an object', '(root)', () => 'hello'),
  dag('null', '(root)', () => null),
  dag('array', '(root)', () => [BASE_DAG]),
  dag('app missing', 'app', (d) => set(d, (x) => delete (x as Partial<Dag>).app)),
  dag('app with spaces', 'app', (d) => ({ ...d, app: 'my app' })),
  dag('app path traversal', 'app', (d) => ({ ...d, app: '../etc' })),
  dag('app SQL', 'app', (d) => ({ ...d, app: SQL[0] })),
  dag('app uppercase', 'app', (d) => ({ ...d, app: 'Demo' })),
  dag('version empty', 'version', (d) => ({ ...d, version: '' })),
  dag('version number', 'version', (d) => ({ ...d, version: 1 })),
  dag('title empty', 'title', (d) => ({ ...d, title: '' })),
  dag('startPage unknown', 'startPage', (d) => ({ ...d, startPage: 'nowhere' })),
  dag('no pages', 'pages', (d) => ({ ...d, pages: [] })),
  dag('pages not array', 'pages', (d) => ({ ...d, pages: {} })),
  dag('duplicate page id', 'pages.1.id', (d) => set(d, (x) => (x.pages[1]!.id = 'home'))),
  dag('page id camelCase', 'pages.1.id', (d) => set(d, (x) => (x.pages[1]!.id = 'myCart'))),
  dag('page id NUL', 'pages.1.id', (d) => set(d, (x) => (x.pages[1]!.id = 'ca\0rt'))),
  dag('page marker empty', 'pages.0.marker', (d) => set(d, (x) => (x.pages[0]!.marker = ''))),
  dag('page description missing', 'pages.0.description', (d) => set(d, (x) => delete (x.pages[0] as Partial<Dag['pages'][0]>).description)),
  dag('slot key bad', 'pages.0.slots.0.key', (d) => set(d, (x) => (x.pages[0]!.slots![0]!.key = 'Dish Name'))),
  dag('slot without values', 'pages.0.slots.0.values', (d) => set(d, (x) => (x.pages[0]!.slots![0]!.values = []))),
  dag('slot empty value', 'pages.0.slots.0.values.0', (d) => set(d, (x) => (x.pages[0]!.slots![0]!.values = ['']))),
  dag('slots not array', 'pages.0.slots', (d) => set(d, (x) => ((x.pages[0] as { slots: unknown }).slots = 'dish'))),
  dag('transition from unknown', 'transitions.0.from', (d) => set(d, (x) => (x.transitions[0]!.from = 'ghost'))),
  dag('transition to unknown', 'transitions.0.to', (d) => set(d, (x) => (x.transitions[0]!.to = '../cart'))),
  dag('transition action empty', 'transitions.0.action', (d) => set(d, (x) => (x.transitions[0]!.action = ''))),
  dag('transition control missing', 'transitions.0.control', (d) => set(d, (x) => delete (x.transitions[0] as Partial<Dag['transitions'][0]>).control)),
  dag('transitions missing', 'transitions', (d) => set(d, (x) => delete (x as Partial<Dag>).transitions)),
  dag('task path unknown page', 'tasks.0.path.1', (d) => set(d, (x) => (x.tasks[0]!.path[1] = 'checkout'))),
  dag('task path empty', 'tasks.0.path', (d) => set(d, (x) => (x.tasks[0]!.path = []))),
  dag('task without templates', 'tasks.0.templates', (d) => set(d, (x) => (x.tasks[0]!.templates = []))),
  dag('task id bad', 'tasks.0.id', (d) => set(d, (x) => (x.tasks[0]!.id = 'Order Food'))),
];

/** A valid base query (domain/entities.ts Query). */
export const BASE_QUERY = {
  id: 'q-demo-1',
  app: 'demo',
  dagVersion: '1',
  family: 'order',
  instruction: 'Order soup',
  rawInstruction: 'Open Demo, order soup',
  path: ['home', 'cart'],
  slots: { dish: 'soup' },
  checker: { app: 'demo', family: 'order', params: { dish: 'soup' } },
  difficulty: 2,
  sampler: 'families',
  seed: 1,
};
type Q = typeof BASE_QUERY;
const q = (name: string, field: string, patch: (x: Q) => unknown): BadCase<unknown> => ({ name, field, input: patch(structuredClone(BASE_QUERY)) });

/** Query specs (domain/entities.ts Query: what the generator writes and a rollout reads back). */
export const QUERY_CASES: BadCase<unknown>[] = [
  q('id empty', 'id', (x) => ({ ...x, id: '' })),
  q('id number', 'id', (x) => ({ ...x, id: 7 })),
  q('instruction empty', 'instruction', (x) => ({ ...x, instruction: '' })),
  q('instruction missing', 'instruction', (x) => set(x, (y) => delete (y as Partial<Q>).instruction)),
  q('instruction object', 'instruction', (x) => ({ ...x, instruction: { text: 'x' } })),
  q('rawInstruction empty', 'rawInstruction', (x) => ({ ...x, rawInstruction: '' })),
  q('path empty', 'path', (x) => ({ ...x, path: [] })),
  q('path string', 'path', (x) => ({ ...x, path: 'home' })),
  q('slots array', 'slots', (x) => ({ ...x, slots: ['soup'] })),
  q('slot value number', 'slots.dish', (x) => ({ ...x, slots: { dish: 3 } })),
  q('checker missing', 'checker', (x) => set(x, (y) => delete (y as Partial<Q>).checker)),
  q('checker params numbers', 'checker.params.dish', (x) => ({ ...x, checker: { ...x.checker, params: { dish: 1 } } })),
  q('difficulty 0', 'difficulty', (x) => ({ ...x, difficulty: 0 })),
  q('difficulty fractional', 'difficulty', (x) => ({ ...x, difficulty: 1.5 })),
  q('difficulty string', 'difficulty', (x) => ({ ...x, difficulty: 'hard' })),
  q('seed fractional', 'seed', (x) => ({ ...x, seed: 0.5 })),
  q('feasible string', 'feasible', (x) => ({ ...x, feasible: 'yes' })),
  q('lineage incomplete', 'lineage', (x) => ({ ...x, lineage: { sampler: 'families' } })),
];

/** Workflow inputs (workflows/contracts.ts CycleInput, parsed first thing by productionCycle). */
export const WORKFLOW_CASES: BadCase<unknown>[] = [
  { name: 'no input', input: undefined, field: '(root)' },
  { name: 'string input', input: 'cycle-1', field: '(root)' },
  { name: 'cycleId missing', input: { cycleNumber: 1, config: {} }, field: 'cycleId' },
  { name: 'cycleId free text', input: { cycleId: 'my cycle', cycleNumber: 1, config: {} }, field: 'cycleId' },
  { name: 'cycleId traversal', input: { cycleId: '../cycle-1', cycleNumber: 1, config: {} }, field: 'cycleId' },
  { name: 'cycleId SQL', input: { cycleId: `cycle-1${SQL[0]}`, cycleNumber: 1, config: {} }, field: 'cycleId' },
  { name: 'cycleNumber 0', input: { cycleId: 'cycle-1', cycleNumber: 0, config: {} }, field: 'cycleNumber' },
  { name: 'cycleNumber fractional', input: { cycleId: 'cycle-1', cycleNumber: 1.5, config: {} }, field: 'cycleNumber' },
  { name: 'cycleNumber string', input: { cycleId: 'cycle-1', cycleNumber: '1', config: {} }, field: 'cycleNumber' },
  { name: 'version 2', input: { version: 2, cycleId: 'cycle-1', cycleNumber: 1, config: {} }, field: 'version' },
  { name: 'config missing', input: { cycleId: 'cycle-1', cycleNumber: 1 }, field: 'config' },
  { name: 'config.queries 0', input: { cycleId: 'cycle-1', cycleNumber: 1, config: { queries: 0 } }, field: 'config.queries' },
  { name: 'config.attempts huge', input: { cycleId: 'cycle-1', cycleNumber: 1, config: { attempts: 1e6 } }, field: 'config.attempts' },
  { name: 'config.agentMode bad', input: { cycleId: 'cycle-1', cycleNumber: 1, config: { agentMode: 'yolo' } }, field: 'config.agentMode' },
  { name: 'config.apps string', input: { cycleId: 'cycle-1', cycleNumber: 1, config: { apps: 'food' } }, field: 'config.apps' },
  { name: 'config.policyTemperature 9', input: { cycleId: 'cycle-1', cycleNumber: 1, config: { policyTemperature: 9 } }, field: 'config.policyTemperature' },
  { name: 'config.critic.votes 0', input: { cycleId: 'cycle-1', cycleNumber: 1, config: { critic: { votes: 0 } } }, field: 'config.critic.votes' },
  { name: 'config.critic.learned unknown key', input: { cycleId: 'cycle-1', cycleNumber: 1, config: { critic: { learned: { modle: 'x' } } } }, field: 'config.critic.learned' },
  { name: 'config.infeasibleRate 0.9', input: { cycleId: 'cycle-1', cycleNumber: 1, config: { infeasibleRate: 0.9 } }, field: 'config.infeasibleRate' },
  { name: 'taskQueuePrefix empty', input: { cycleId: 'cycle-1', cycleNumber: 1, config: {}, taskQueuePrefix: '' }, field: 'taskQueuePrefix' },
];

/** Dataset names (CycleConfig.datasetName: becomes a blob-key segment and a `datasets.name`). */
export const DATASET_NAME_CASES: BadCase<string>[] = ['', 'Gui-Owl', '../x', 'a/b', 'x y', SQL[0]!, SQL[5]!, '-lead', 'a\0b', 'ü', '.', '..', 'name\n'].map((n) => ({
  name: JSON.stringify(n),
  input: n,
  field: 'datasetName',
}));

/** Blob keys (storage/blob-common.ts assertKey, for every store). */
export const BLOB_KEY_CASES: BadCase<string>[] = [
  '../etc/passwd',
  'a/../../b',
  'sha256/../../../x',
  '/etc/passwd',
  '/abs/key',
  'a\0b',
  '',
  'UPPER/case',
  'a//b',
  '.hidden',
  'a/./b',
  'a/..',
  '\\\\server\\share',
  'a b',
  'ü',
  'trailing/',
].map((k) => ({ name: JSON.stringify(k), input: k, field: 'key' }));

/** Minimal PNG with a chosen IHDR (width × height) and optional pixel data; CRCs are correct. */
export function pngHeader(width: number, height: number, idat?: Buffer): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer): number => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer): Buffer => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat ?? deflateSync(Buffer.alloc(0))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Screenshots sent to a model endpoint (the reference server's policy role): data URLs. */
export function imageCases(validPng: Buffer): BadCase<string>[] {
  const url = (b: Buffer, mime = 'image/png'): string => `data:${mime};base64,${b.toString('base64')}`;
  return [
    { name: 'truncated PNG', input: url(validPng.subarray(0, Math.floor(validPng.length / 2))), field: 'messages' },
    { name: 'PNG header only', input: url(validPng.subarray(0, 40)), field: 'messages' },
    { name: '0-byte image', input: url(Buffer.alloc(0)), field: 'messages' },
    { name: '20000x20000 PNG (header claims it)', input: url(pngHeader(20_000, 20_000)), field: 'messages' },
    { name: '1x1 PNG with no pixel data', input: url(pngHeader(1, 1)), field: 'messages' },
    { name: 'text labelled image/png', input: url(Buffer.from('hello, not an image')), field: 'messages' },
    { name: 'HTML labelled image/png', input: url(Buffer.from('<html><body>502 Bad Gateway</body></html>')), field: 'messages' },
    { name: 'GIF bytes (wrong type)', input: url(Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), 'image/gif'), field: 'messages' },
    { name: 'not base64', input: 'data:image/png;base64,@@@@', field: 'messages' },
    { name: 'remote URL', input: 'http://127.0.0.1:9/shot.png', field: 'messages' },
    { name: 'file URL', input: 'file:///etc/passwd', field: 'messages' },
  ];
}

/** Bodies a model endpoint may answer with (models/gateway.ts must turn each into a typed ModelError). */
export const MODEL_REPLY_CASES: BadCase<{ status: number; body: string; contentType?: string }>[] = [
  { name: 'empty body', input: { status: 200, body: '' }, field: 'not JSON' },
  { name: 'truncated JSON', input: { status: 200, body: '{"id":"x","choices":[{"index":0,"message":{"role":"assis' }, field: 'not JSON' },
  { name: 'HTML error page with 200', input: { status: 200, body: '<html>oops</html>', contentType: 'text/html' }, field: 'not JSON' },
  { name: 'JSON array', input: { status: 200, body: '[]' }, field: 'invalid chat response' },
  { name: 'no choices', input: { status: 200, body: '{"id":"x","object":"chat.completion","created":1,"model":"m"}' }, field: 'choices' },
  { name: 'choices not array', input: { status: 200, body: '{"id":"x","object":"chat.completion","created":1,"model":"m","choices":{}}' }, field: 'choices' },
  { name: 'message missing', input: { status: 200, body: '{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"stop"}]}' }, field: 'choices.0.message' },
  { name: 'role wrong', input: { status: 200, body: '{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"robot","content":"hi"}}]}' }, field: 'choices.0.message' },
  { name: 'content number', input: { status: 200, body: '{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":42}}]}' }, field: 'choices.0.message' },
  { name: 'HTTP 400 invalid request', input: { status: 400, body: '{"error":{"message":"bad","type":"invalid_request_error"}}' }, field: 'HTTP 400' },
  { name: 'HTTP 401 bad key', input: { status: 401, body: '{"error":{"message":"bad key"}}' }, field: 'HTTP 401' },
  { name: 'HTTP 404 no model', input: { status: 404, body: 'not found' }, field: 'HTTP 404' },
];

/**
 * Requests to the review server's routes (review/server.ts) by a logged-in admin with a valid CSRF token: bad ids, bad
 * form fields and query strings, SQL-looking strings, path traversal. `status` is the 4xx the route must answer,
 * `field` a substring of its body (the field it names). `ROLLOUT` in a path or form is replaced by a real rollout id.
 * Login failures deliberately answer one uniform 401 (no hint which of name and password was wrong).
 */
export interface ReviewRouteCase {
  method: 'GET' | 'POST';
  path: string;
  form?: Record<string, string>;
  status: number;
}
const LONG = 'x'.repeat(5000);
const TRAVERSAL = ['../../etc/passwd', '..%2F..%2Fetc%2Fpasswd', '/etc/passwd', 'sha256/../../../etc/passwd', 'sha256/ab/%2e%2e%2f%2e%2e%2fsecret.png', 'a\\..\\..\\b'];
export const REVIEW_ROUTE_CASES: BadCase<ReviewRouteCase>[] = [
  // GET /rollout?id=…: the id is validated (400 naming `id`), unknown ids are 404 and claim nothing.
  { name: 'GET /rollout without id', input: { method: 'GET', path: '/rollout', status: 400 }, field: 'id' },
  { name: 'GET /rollout with empty id', input: { method: 'GET', path: '/rollout?id=', status: 400 }, field: 'id' },
  { name: 'GET /rollout with two ids', input: { method: 'GET', path: '/rollout?id=a&id=b', status: 400 }, field: 'id' },
  { name: 'GET /rollout with a 600-char id', input: { method: 'GET', path: `/rollout?id=${'y'.repeat(600)}`, status: 400 }, field: 'id' },
  ...[...SQL, ...TRAVERSAL].map((id) => ({ name: `GET /rollout?id=${id}`, input: { method: 'GET' as const, path: `/rollout?id=${encodeURIComponent(id)}`, status: 404 }, field: 'not found' })),
  // GET /queue filters.
  ...['bogus', `x${SQL[0]}`, 'HUMAN'].map((kind) => ({ name: `GET /queue?kind=${kind}`, input: { method: 'GET' as const, path: `/queue?kind=${encodeURIComponent(kind)}`, status: 400 }, field: 'kind' })),
  { name: 'GET /queue with a 100-char app', input: { method: 'GET', path: `/queue?app=${'a'.repeat(100)}`, status: 400 }, field: 'app' },
  { name: 'GET /queue with two apps', input: { method: 'GET', path: '/queue?app=food&app=shop', status: 400 }, field: 'app' },
  { name: 'GET /queue with a 200-char cycle', input: { method: 'GET', path: `/queue?cycle=${'c'.repeat(200)}`, status: 400 }, field: 'cycle' },
  { name: 'GET /queue with a 600-char critic', input: { method: 'GET', path: `/queue?critic=${'k'.repeat(600)}`, status: 400 }, field: 'critic' },
  // POST /queue/next filters.
  ...['bogus', SQL[1]!].map((kind) => ({ name: `POST /queue/next kind=${kind}`, input: { method: 'POST' as const, path: '/queue/next', form: { kind }, status: 400 }, field: 'kind' })),
  { name: 'POST /queue/next with a 100-char app', input: { method: 'POST', path: '/queue/next', form: { app: 'a'.repeat(100) }, status: 400 }, field: 'app' },
  // POST /rollout/verdict: every field.
  { name: 'verdict without id', input: { method: 'POST', path: '/rollout/verdict', form: { verdict: 'accept' }, status: 400 }, field: 'id' },
  { name: 'verdict with empty id', input: { method: 'POST', path: '/rollout/verdict', form: { id: '', verdict: 'accept' }, status: 400 }, field: 'id' },
  { name: 'verdict with a 600-char id', input: { method: 'POST', path: '/rollout/verdict', form: { id: 'z'.repeat(600), verdict: 'accept' }, status: 400 }, field: 'id' },
  ...[...SQL, ...TRAVERSAL].map((id) => ({ name: `verdict on id ${id}`, input: { method: 'POST' as const, path: '/rollout/verdict', form: { id, verdict: 'reject' }, status: 404 }, field: 'not found' })),
  ...['', 'maybe', 'ACCEPT', 'true', SQL[2]!].map((verdict) => ({ name: `verdict=${verdict || '(empty)'}`, input: { method: 'POST' as const, path: '/rollout/verdict', form: { id: 'ROLLOUT', verdict }, status: 400 }, field: 'verdict' })),
  { name: 'verdict missing', input: { method: 'POST', path: '/rollout/verdict', form: { id: 'ROLLOUT' }, status: 400 }, field: 'verdict' },
  ...['x', '1,,2', '-1', '1.5', '1;2', `0${SQL[1]}`, '0x1', ' 1'].map((steps) => ({ name: `steps=${steps}`, input: { method: 'POST' as const, path: '/rollout/verdict', form: { id: 'ROLLOUT', verdict: 'reject', steps }, status: 400 }, field: 'steps' })),
  ...['999', '0,5', '99999999999999999999'].map((steps) => ({ name: `steps=${steps} (not steps of the rollout)`, input: { method: 'POST' as const, path: '/rollout/verdict', form: { id: 'ROLLOUT', verdict: 'reject', steps }, status: 400 }, field: 'steps' })),
  { name: 'steps longer than 4096 chars', input: { method: 'POST', path: '/rollout/verdict', form: { id: 'ROLLOUT', verdict: 'reject', steps: Array.from({ length: 2100 }, () => '1').join(',') }, status: 400 }, field: 'steps' },
  { name: 'note of 5000 chars', input: { method: 'POST', path: '/rollout/verdict', form: { id: 'ROLLOUT', verdict: 'accept', note: LONG }, status: 400 }, field: 'note' },
  // POST /rollout/skip.
  { name: 'skip without id', input: { method: 'POST', path: '/rollout/skip', form: {}, status: 400 }, field: 'id' },
  ...[...SQL, ...TRAVERSAL].map((id) => ({ name: `skip id ${id}`, input: { method: 'POST' as const, path: '/rollout/skip', form: { id }, status: 404 }, field: 'not found' })),
  // GET /blob/*: screenshots by content-addressed key only.
  ...[...TRAVERSAL, 'sha256/ab/' + 'f'.repeat(64) + '.json', 'datasets/x/v1/manifest.json', `sha256/ab/${'0'.repeat(64)}.png`, 'sha256/AB/' + 'F'.repeat(64) + '.png'].map((key) => ({
    name: `GET /blob/${key}`,
    input: { method: 'GET' as const, path: `/blob/${key}`, status: 404 },
    field: 'not',
  })),
  // POST /admin/unmask.
  ...['', '2', 'yes', SQL[0]!].map((on) => ({ name: `unmask on=${on || '(empty)'}`, input: { method: 'POST' as const, path: '/admin/unmask', form: { on }, status: 400 }, field: 'on' })),
  // POST /login: uniform 401.
  ...[{ name: 'a'.repeat(65), password: 'x' }, { name: SQL[1]!, password: SQL[1]! }, { name: 'root', password: 'p'.repeat(1025) }, { name: '', password: '' }, { name: 'root', password: SQL[0]! }].map((form) => ({
    name: `login name=${form.name.slice(0, 20)} password=${form.password.slice(0, 20)}`,
    input: { method: 'POST' as const, path: '/login', form, status: 401 },
    field: 'Wrong name or password',
  })),
];
