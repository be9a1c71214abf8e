import { BUILT_IN_APPS } from '../environments/app-world.js';
import { validateWorld } from '../domain/dag.js';

const out = (line = ''): void => void process.stdout.write(`${line}\n`);

/** Static coverage of the built-in app world: each app's pages and edges, and which task families have checkers. */
export function appsReport(): { apps: number; families: number; unchecked: string[] } {
  const unchecked: string[] = [];
  let families = 0;
  out('app        version  pages  edges  families  checked  task families (✓ = programmatic checker)');
  for (const app of BUILT_IN_APPS) {
    const checked = new Set(app.checkers.families);
    const fams = app.dag.tasks.map((t) => {
      const ok = checked.has(t.id);
      if (!ok) unchecked.push(`${app.id}:${t.id}`);
      const cross = t.path.some((p) => p.includes(':')) ? ' (cross-app)' : '';
      return `${ok ? '✓' : '✗'} ${t.id}${cross}`;
    });
    families += fams.length;
    out(
      `${app.id.padEnd(10)} ${app.dag.version.padEnd(8)} ${String(app.dag.pages.length).padStart(5)}  ${String(app.dag.transitions.length).padStart(5)}  ${String(fams.length).padStart(8)}  ${String(fams.length - unchecked.filter((u) => u.startsWith(`${app.id}:`)).length).padStart(7)}  ${fams.join(', ')}`,
    );
  }
  const problems = validateWorld(BUILT_IN_APPS.map((a) => a.dag));
  for (const p of problems) out(`world: ${p.app} ${p.path}: ${p.message}`);
  out(`${BUILT_IN_APPS.length} apps, ${families} task families, ${families - unchecked.length} with checkers${unchecked.length ? `; unchecked: ${unchecked.join(', ')}` : ''}`);
  if (problems.length || unchecked.length) process.exitCode = 1;
  return { apps: BUILT_IN_APPS.length, families, unchecked };
}
