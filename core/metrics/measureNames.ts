// Which measure names a study may pick (its `measures` statement) and, for one it may not, what is wrong and the
// names it was probably meant to be: trec_eval's names as -m takes them (map, P.10, ndcg_cut.10, official) and the
// named measures of namedMeasures.ts (err@20, rbp@0.8). The language server's check, its completion and the
// Evaluate view read this one module, so that a name the editor accepts is one the view computes.
import { closestWords } from '../dsl/editDistance.ts';
import { instructionMeasures } from './instruction/registry.ts';
import { MeasureSpecError, selectMeasures } from './measureSelection.ts';
import { isNamedMeasureSpec, NamedMeasureError, namedMeasureFamilies, parseNamedMeasure } from './namedMeasures.ts';
import { knownUnsupportedMeasures, measureNicknames, trecMeasures } from './registry.ts';

export interface MeasureNameProblem {
  message: string;
  /** Whole names to suggest ("did you mean"), best first; empty when none is close. */
  suggestions: string[];
}

function baseName(spec: string): string {
  return spec.split(/[.@]/, 1)[0]!;
}

/** Every measure name without its parameter: trec_eval's, its sets, the named families. */
function knownBaseNames(): string[] {
  return [
    ...trecMeasures.map((m) => m.name),
    ...Object.keys(measureNicknames),
    ...namedMeasureFamilies.map((f) => f.name),
  ];
}

/** What is wrong with `spec` as a measure a study evaluates (undefined: nothing). */
export function measureNameProblem(spec: string): MeasureNameProblem | undefined {
  const base = baseName(spec);
  if (instructionMeasures.some((m) => m.name === base)) {
    return {
      message: `'${base}' is an instruction-following measure: the Evaluate view shows irs and p_mrr when a query-only baseline run is picked, not by name here`,
      suggestions: [],
    };
  }
  if (!knownBaseNames().includes(base) && !knownUnsupportedMeasures.has(base)) {
    const suffix = spec.slice(base.length);
    return {
      message:
        `unknown measure '${spec}': expected a trec_eval measure (map, P.10, ndcg_cut.10, recip_rank, …) or a ` +
        `measure of gdeval, ndeval or rbp_eval (${namedMeasureFamilies.map((f) => f.example).join(', ')})`,
      suggestions: closestWords(base, knownBaseNames()).map((name) => `${name}${suffix}`),
    };
  }
  try {
    if (isNamedMeasureSpec(spec)) parseNamedMeasure(spec);
    else selectMeasures([spec]);
    return undefined;
  } catch (error) {
    if (!(error instanceof MeasureSpecError || error instanceof NamedMeasureError)) throw error;
    return { message: error.message, suggestions: [] };
  }
}

/** The names completion offers where a measure is expected, with what each is. */
export function measureCompletions(): { name: string; detail: string }[] {
  return [
    ...trecMeasures.map((m) => ({
      name: m.defaultCutoffs ? `${m.name}.${m.defaultCutoffs[1] ?? m.defaultCutoffs[0]}` : m.name,
      detail: `trec_eval: ${m.help.split('\n', 1)[0]!.trim()}`,
    })),
    ...Object.keys(measureNicknames).map((name) => ({ name, detail: `trec_eval's set of measures '${name}'` })),
    ...namedMeasureFamilies.map((f) => ({ name: f.example, detail: `${f.tool}: ${f.help}` })),
  ];
}

/** What a valid measure name is and which tool it equals (hover); undefined for a name with a problem. */
export function measureDescription(spec: string): string | undefined {
  if (measureNameProblem(spec)) return undefined;
  if (isNamedMeasureSpec(spec)) {
    const { family, valueNames } = parseNamedMeasure(spec);
    const shows = valueNames.length > 1 ? ` The view shows ${valueNames.map((n) => `\`${n}\``).join(' and ')}.` : '';
    return `**${spec}** — ${family.help}.${shows}\n\nEquals ${family.tool}'s ${family.toolName}.`;
  }
  const base = baseName(spec);
  const measure = trecMeasures.find((m) => m.name === base);
  if (!measure) return `**${spec}** — trec_eval's set of measures \`${base}\`.`;
  return `**${spec}** — ${measure.help.trim().split('\n', 1)[0]!.trim()}\n\nEquals trec_eval 10's \`-m ${spec}\`.`;
}
