import { between, createSeededRandom, pick, type SeededRandom } from './seeded-random.js';

/** The tools the simulated agent calls; names and parameters as gemini-cli's, so strategies recognise them. */
export const stressToolNames = ['read_file', 'run_shell_command', 'search_file_content'] as const;

/** One of {@link stressToolNames}. */
export type StressToolName = (typeof stressToolNames)[number];

const services = ['api-gateway', 'orders', 'payments', 'inventory', 'auth', 'search', 'billing', 'notifications'];
const resources = ['Deployment', 'StatefulSet', 'DaemonSet', 'Service', 'Ingress', 'ConfigMap', 'HorizontalPodAutoscaler', 'PodDisruptionBudget'];
const problems = [
  'pods are stuck in CrashLoopBackOff after the rollout',
  'the readiness probe fails with a 503 for about forty seconds after each restart',
  'p99 latency doubled since the node pool was upgraded',
  'the autoscaler keeps flapping between three and nine replicas',
  'requests are dropped while the ingress controller reloads its configuration',
  'the init container times out waiting for the database migration lock',
  'memory usage climbs until the container is OOMKilled',
  'the canary receives no traffic although the weight is set to twenty percent',
];
const actions = [
  'check the resource limits in the manifest',
  'compare the liveness and readiness probe timings',
  'look at the events of the namespace',
  'read the controller logs around the restart',
  'verify the service selector matches the pod labels',
  'diff the Helm values between staging and production',
  'inspect the PodDisruptionBudget before draining the node',
  'confirm the ConfigMap was mounted with the new keys',
];
const connectives = ['Before that,', 'After the last change,', 'In the meantime,', 'Separately,', 'Once that is done,', 'Also,', 'Note that', 'Then'];
const paths = [
  'deploy/helm/values.yaml',
  'deploy/k8s/orders-deployment.yaml',
  'deploy/k8s/payments-statefulset.yaml',
  'src/server/health-check.ts',
  'src/orders/order-controller.ts',
  'src/config/load-config.ts',
  'ops/runbooks/rollout.md',
  'deploy/k8s/ingress.yaml',
];
const levels = ['INFO', 'INFO', 'INFO', 'DEBUG', 'WARN', 'ERROR'];
const routes = ['/v1/orders', '/v1/payments/intent', '/v1/inventory/reserve', '/healthz', '/readyz', '/v1/search', '/metrics'];

/** Appends generated lines until `characters` is reached, then cuts to exactly that length (never blank). */
function fill(characters: number, nextLine: () => string): string {
  const lines: string[] = [];
  let length = 0;
  while (length < characters) {
    const line = nextLine();
    lines.push(line);
    length += line.length + 1;
  }
  const text = lines.join('\n').slice(0, Math.max(1, characters));
  return text.trim() === '' ? 'ok' : text;
}

function sentence(random: SeededRandom): string {
  const service = pick(random, services);
  switch (between(random, 0, 4)) {
    case 0:
      return `In the ${service} ${pick(random, resources)} ${pick(random, problems)}.`;
    case 1:
      return `${pick(random, connectives)} ${pick(random, actions)} for ${service} in namespace ${service}-${pick(random, ['prod', 'staging', 'canary'])}.`;
    case 2:
      return `The ${pick(random, resources)} in ${pick(random, paths)} sets replicas to ${between(random, 1, 12)}, cpu to ${between(random, 100, 2000)}m and memory to ${between(random, 128, 4096)}Mi.`;
    case 3:
      return `We saw ${between(random, 2, 480)} restarts in the last ${between(random, 1, 24)} hours and ${between(random, 1, 60)} failed health checks on node worker-${between(random, 1, 40)}.`;
    default:
      return `Please ${pick(random, actions)} and tell me whether ${pick(random, problems)}.`;
  }
}

/**
 * Generates technical prose about a Kubernetes service (like spec 002's `longMessage`): what users and assistants
 * write. Deterministic: the same seed and length always give the same text.
 *
 * @param seed - Names the text, e.g. `8k_ToolBurst/turn 2/user`.
 * @param characters - Exact length of the result (at least 1).
 */
export function generateTechnicalText(seed: string, characters: number): string {
  const random = createSeededRandom(seed);
  const sentences: string[] = [];
  let length = 0;
  while (length < characters) {
    const next = sentence(random);
    sentences.push(next);
    length += next.length + 1;
  }
  const text = sentences.join(' ').slice(0, Math.max(1, characters));
  return text.trim() === '' ? 'ok' : text;
}

function timestamp(random: SeededRandom, line: number): string {
  const seconds = line * 3 + between(random, 0, 2);
  const hh = String(9 + Math.floor(seconds / 3600) % 14).padStart(2, '0');
  const mm = String(Math.floor(seconds / 60) % 60).padStart(2, '0');
  const ss = String(seconds % 60).padStart(2, '0');
  return `2025-03-14T${hh}:${mm}:${ss}.${String(between(random, 0, 999)).padStart(3, '0')}Z`;
}

function logLine(random: SeededRandom, line: number): string {
  const service = pick(random, services);
  const pod = `${service}-${between(random, 0x1000, 0xffff).toString(16)}`;
  if (between(random, 0, 4) === 0) {
    return JSON.stringify({
      ts: timestamp(random, line),
      level: pick(random, levels).toLowerCase(),
      pod,
      msg: pick(random, problems),
      replicas: between(random, 1, 12),
      latencyMs: between(random, 2, 2500),
    });
  }
  return `${timestamp(random, line)} ${pick(random, levels).padEnd(5)} [${pod}] ${pick(random, ['GET', 'POST', 'PUT'])} ${pick(random, routes)}/${between(random, 1, 99_999)} ${pick(random, [200, 200, 200, 201, 404, 503])} ${between(random, 1, 900)}ms trace=${between(random, 0, 0xffffff).toString(16).padStart(6, '0')}`;
}

function manifestLine(random: SeededRandom, line: number): string {
  const indent = '  '.repeat(line % 4);
  switch (line % 6) {
    case 0:
      return `${indent}- name: ${pick(random, services)}-${pick(random, ['http', 'grpc', 'metrics'])}`;
    case 1:
      return `${indent}  image: registry.example.com/${pick(random, services)}:1.${between(random, 0, 40)}.${between(random, 0, 20)}`;
    case 2:
      return `${indent}  resources: { requests: { cpu: ${between(random, 50, 1000)}m, memory: ${between(random, 64, 2048)}Mi }, limits: { memory: ${between(random, 128, 4096)}Mi } }`;
    case 3:
      return `${indent}  readinessProbe: { httpGet: { path: /readyz, port: ${between(random, 8000, 9000)} }, periodSeconds: ${between(random, 2, 30)} }`;
    case 4:
      return `${indent}  env: [{ name: ${pick(random, ['DB_POOL_SIZE', 'LOG_LEVEL', 'CACHE_TTL', 'FEATURE_FLAGS'])}, value: "${between(random, 1, 500)}" }]`;
    default:
      return `${indent}# ${pick(random, actions)}`;
  }
}

function searchLine(random: SeededRandom): string {
  return `${pick(random, paths)}:${between(random, 1, 900)}:    ${pick(random, ['const', 'if (', 'return', 'await', 'replicas:', 'timeoutSeconds:'])} ${pick(random, services)}${pick(random, ['Client', 'Config', '.spec.replicas', 'Probe', 'Timeout'])} ${pick(random, ['= 3;', '?? defaults;', '> limit)', '(request);', '30'])}`;
}

/**
 * Generates a tool's output: log lines with some JSON events for a shell command, a YAML-like manifest for a
 * file read, `path:line: match` lines for a search. Deterministic: the same seed, tool and length always give the
 * same text.
 *
 * @param seed - Names the output, e.g. `200k_ToolHeavy/turn 4/call 2`.
 * @param tool - Which tool produced it.
 * @param characters - Exact length of the result (at least 1).
 */
export function generateToolOutput(seed: string, tool: StressToolName, characters: number): string {
  const random = createSeededRandom(`${seed}/${tool}`);
  let line = 0;
  const next = (): string => {
    line += 1;
    if (tool === 'read_file') return manifestLine(random, line);
    if (tool === 'search_file_content') return searchLine(random);
    return logLine(random, line);
  };
  return fill(characters, next);
}

/**
 * The parameters of a simulated tool call: a file path, a shell command or a search pattern. Reads cycle over a
 * small set of files, so the same file is read again later in a session (what density optimization dedupes).
 *
 * @param seed - Names the call.
 * @param tool - Which tool is called.
 */
export function generateToolParameters(seed: string, tool: StressToolName): Record<string, string> {
  const random = createSeededRandom(`${seed}/parameters`);
  switch (tool) {
    case 'read_file':
      return { file_path: `/workspace/${pick(random, paths)}` };
    case 'search_file_content':
      return { pattern: `${pick(random, services)}${pick(random, ['Client', 'Config', 'Probe', 'Timeout'])}`, path: '/workspace' };
    case 'run_shell_command':
      return {
        command: `kubectl logs deploy/${pick(random, services)} -n ${pick(random, services)}-prod --since=${between(random, 5, 120)}m --tail=${between(random, 200, 5000)}`,
      };
  }
}
