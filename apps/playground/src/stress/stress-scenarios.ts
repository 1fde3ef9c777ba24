import { stressToolNames, type StressToolName } from './generate-stress-text.js';
import { between, createSeededRandom, type SeededRandom } from './seeded-random.js';
import type { StressScenario, StressScenarioSource, StressToolCall, StressTurn } from './stress-scenario.js';

/** Characters of the system prompt when the spec's table does not set one: a typical agent's instructions. */
const defaultSystemPromptCharacters = 2_000;

/** What the simulated model answers in text, per answer, when a scenario does not say otherwise. */
const defaultAnswerCharacters = 500;

/** A scenario as written in the table below; {@link buildScenario} expands it into turns. */
interface ScenarioOutline {
  readonly name: string;
  readonly source?: StressScenarioSource;
  readonly window: number;
  readonly turns: number;
  /** The token ratio, or per 1-based turn. */
  readonly ratio: number | ((turn: number) => number);
  /** Usage metadata from the first turn (true), never (false), or from this 1-based turn on. */
  readonly usage: boolean | { readonly fromTurn: number };
  /** Characters of each user message. */
  readonly user: number;
  readonly answer?: number;
  readonly system?: number;
  /** The tool output sizes (characters) of the 1-based turn; the tool is picked deterministically per call. */
  readonly tools?: (turn: number, random: SeededRandom) => readonly number[];
  readonly validates: string;
  readonly specRow: string;
}

/** Output sizes drawn uniformly from [min, max] characters. */
function sizesBetween(random: SeededRandom, count: number, min: number, max: number): number[] {
  return Array.from({ length: count }, () => between(random, min, max));
}

function buildScenario(outline: ScenarioOutline): StressScenario {
  const turns: StressTurn[] = [];
  for (let turn = 1; turn <= outline.turns; turn++) {
    const random = createSeededRandom(`${outline.name}/turn ${turn}/tools`);
    const sizes = outline.tools?.(turn, random) ?? [];
    const toolCalls: StressToolCall[] = sizes.map((characters) => ({
      tool: stressToolNames[Math.floor(random() * stressToolNames.length)] as StressToolName,
      characters,
    }));
    const ratio = typeof outline.ratio === 'number' ? outline.ratio : outline.ratio(turn);
    const usageMetadata = typeof outline.usage === 'boolean' ? outline.usage : turn >= outline.usage.fromTurn;
    turns.push({
      userCharacters: outline.user,
      answerCharacters: outline.answer ?? defaultAnswerCharacters,
      toolCalls,
      tokenRatio: ratio,
      usageMetadata,
    });
  }
  return {
    name: outline.name,
    source: outline.source ?? 'spec-002',
    contextLimit: outline.window,
    // What a real agent keeps for the answer (its max_tokens), as in the root README's agent loop.
    reservedOutputTokens: outline.window >= 100_000 ? 8_192 : 1_024,
    systemPromptCharacters: outline.system ?? defaultSystemPromptCharacters,
    validates: outline.validates,
    specRow: outline.specRow,
    turns,
  };
}

const k200 = 200_000;
const k128 = 128_000;
const k8 = 8_000;

/**
 * Characters of generated tool output per token of ours (o200k on the log / manifest text the simulation
 * generates, measured): sizes a giant output in tokens of the window.
 */
const toolOutputCharactersPerToken = 3;

/**
 * Spec 002's 25 `TestStress_*` scenarios (Proposal 6, "Comprehensive stress test suite"). Sizes are characters, as
 * in the spec (its heuristic is `characters ÷ 4`); where the table is vague the numbers chosen are written here:
 * user messages of 300 characters for "short", 1,500 for "long"; answers of 500; a 2,000-character system prompt
 * unless the table sets one; a one-off tool output comes in the middle turn; "mixed (1k-50k)" is 0-3 calls a turn
 * with log-uniform sizes. Spec 002 marks the ratio of the scenarios without usage metadata as irrelevant (its
 * overflow proxy never saw it); here the simulated provider counts with it all the same.
 */
const specOutlines: readonly ScenarioOutline[] = [
  {
    name: 'TestStress_200k_NormalConversation',
    window: k200, turns: 30, ratio: 2.0, usage: true, user: 300,
    validates: "Short messages don't trigger unnecessary compaction",
    specRow: '30 turns, ratio 2.0, usage yes, no tools',
  },
  {
    name: 'TestStress_200k_ToolHeavy',
    window: k200, turns: 20, ratio: 2.0, usage: true, user: 600,
    tools: (_turn, random) => sizesBetween(random, 3, 10_000, 20_000),
    validates: 'Multiple compactions with heavy tool usage',
    specRow: '20 turns, ratio 2.0, usage yes, 3 tools/turn (10k-20k)',
  },
  {
    name: 'TestStress_200k_SingleGiantToolResponse',
    window: k200, turns: 3, ratio: 2.0, usage: true, user: 600,
    tools: (turn) => (turn === 2 ? [300_000] : []),
    validates: 'Session survives a tool response larger than the window',
    specRow: '3 turns, ratio 2.0, usage yes, 1x 300k (turn 2)',
  },
  {
    name: 'TestStress_200k_ToolBurst',
    window: k200, turns: 3, ratio: 2.0, usage: true, user: 600,
    tools: (turn) => (turn === 2 ? Array.from({ length: 10 }, () => 5_000) : []),
    validates: "10 tools in one turn doesn't overflow",
    specRow: '3 turns, ratio 2.0, usage yes, 10x 5k burst (turn 2)',
  },
  {
    name: 'TestStress_8k_NormalConversation',
    window: k8, turns: 20, ratio: 1.8, usage: true, user: 1_500,
    validates: 'Long text-only messages trigger compaction in small window',
    specRow: '20 turns, ratio 1.8, usage yes, no tools',
  },
  {
    name: 'TestStress_8k_SmallToolCalls',
    window: k8, turns: 15, ratio: 1.8, usage: true, user: 400, answer: 300,
    tools: () => [1_000],
    validates: 'Text + small tools compact properly',
    specRow: '15 turns, ratio 1.8, usage yes, 1 tool/turn (1k)',
  },
  {
    name: 'TestStress_8k_LargeToolResponse',
    window: k8, turns: 3, ratio: 1.8, usage: true, user: 400, answer: 300,
    tools: (turn) => (turn === 2 ? [20_000] : []),
    validates: 'Tool response 2.5x the window compacts on next turn',
    specRow: '3 turns, ratio 1.8, usage yes, 1x 20k (turn 2)',
  },
  {
    name: 'TestStress_200k_NoUsageMetadata',
    window: k200, turns: 25, ratio: 2.5, usage: false, user: 600,
    tools: () => [8_000],
    validates: 'Pure heuristic mode (default 1.5x factor) works',
    specRow: '25 turns, ratio 2.5*, usage no, 1 tool/turn (8k)',
  },
  {
    name: 'TestStress_8k_NoUsageMetadata',
    window: k8, turns: 25, ratio: 2.0, usage: false, user: 400, answer: 300,
    tools: () => [1_500],
    validates: 'Pure heuristic compacts in small window',
    specRow: '25 turns, ratio 2.0*, usage no, 1 tool/turn (1.5k)',
  },
  {
    name: 'TestStress_200k_LongRunning_50Turns',
    window: k200, turns: 50, ratio: 2.2, usage: true, user: 600,
    tools: (turn) => (turn % 3 === 0 ? [5_000, 15_000] : []),
    validates: "Long session with periodic tools doesn't loop",
    specRow: '50 turns, ratio 2.2, usage yes, every 3rd turn (5k+15k)',
  },
  {
    name: 'TestStress_8k_LongRunning_40Turns',
    window: k8, turns: 40, ratio: 1.8, usage: true, user: 800,
    validates: 'Multiple compactions across long text session',
    specRow: '40 turns, ratio 1.8, usage yes, no tools',
  },
  {
    name: 'TestStress_200k_MassiveToolBurst',
    window: k200, turns: 2, ratio: 2.0, usage: true, user: 600,
    tools: (turn) => (turn === 1 ? Array.from({ length: 15 }, () => 50_000) : []),
    validates: '750k chars of tool responses in one turn',
    specRow: '2 turns, ratio 2.0, usage yes, 15x 50k (turn 1)',
  },
  {
    name: 'TestStress_8k_ToolBurst',
    window: k8, turns: 3, ratio: 1.8, usage: true, user: 400, answer: 300,
    tools: (turn, random) => (turn === 2 ? [3_000, 3_000, 3_000, ...sizesBetween(random, 2, 1_000, 2_000)] : []),
    validates: "Tool burst in small window doesn't overflow",
    specRow: '3 turns, ratio 1.8, usage yes, 3x 3k + 2x 1-2k (turn 2)',
  },
  {
    name: 'TestStress_200k_HighTokenRatio',
    window: k200, turns: 15, ratio: 3.0, usage: true, user: 600,
    tools: () => [10_000],
    validates: '3x underestimation handled by calibration',
    specRow: '15 turns, ratio 3.0, usage yes, 1 tool/turn (10k)',
  },
  {
    name: 'TestStress_8k_HighTokenRatio',
    window: k8, turns: 20, ratio: 3.0, usage: true, user: 400, answer: 300,
    tools: () => [1_000],
    validates: 'High ratio + small window compacts correctly',
    specRow: '20 turns, ratio 3.0, usage yes, 1 tool/turn (1k)',
  },
  {
    name: 'TestStress_200k_LargeSystemPrompt',
    window: k200, turns: 20, ratio: 2.0, usage: true, user: 600, system: 50_000,
    tools: () => [5_000],
    validates: '50k-char system prompt (12.5k heuristic tokens)',
    specRow: '20 turns, ratio 2.0, usage yes, 1 tool/turn (5k), 50k-char system prompt',
  },
  {
    name: 'TestStress_8k_LargeSystemPrompt',
    window: k8, turns: 15, ratio: 1.8, usage: true, user: 400, answer: 300, system: 8_000,
    validates: '8k-char system prompt eats 25% of small window',
    specRow: '15 turns, ratio 1.8, usage yes, no tools, 8k-char system prompt',
  },
  {
    name: 'TestStress_CompactionNoInfiniteLoop',
    window: k8, turns: 5, ratio: 2.5, usage: true, user: 400, answer: 300, system: 12_000,
    validates: "12k-char system prompt (> window) doesn't cause loop",
    specRow: '5 turns, ratio 2.5, usage yes, no tools, 12k-char system prompt',
  },
  {
    name: 'TestStress_200k_LateUsageMetadata',
    window: k200, turns: 25, ratio: (turn) => (turn <= 5 ? 2.0 : 2.5), usage: { fromTurn: 6 }, user: 600,
    tools: (_turn, random) => sizesBetween(random, 1, 5_000, 10_000),
    validates: 'Transition from heuristic to calibrated mode',
    specRow: '5+20 turns, ratio 2.0 then 2.5, usage from turn 6, 1 tool/turn (5-10k)',
  },
  {
    name: 'TestStress_8k_RepeatedCompactions',
    window: k8, turns: 40, ratio: 1.8, usage: true, user: 400, answer: 300,
    tools: () => [2_000],
    validates: '≥6 compactions, no overflow, no loops',
    specRow: '40 turns, ratio 1.8, usage yes, 1 tool/turn (2k)',
  },
  {
    name: 'TestStress_200k_RepeatedCompactions',
    window: k200, turns: 60, ratio: 2.0, usage: true, user: 600,
    tools: (turn) => (turn % 2 === 0 ? [30_000, 10_000] : []),
    validates: '≥3 compactions in heavy 200k session',
    specRow: '60 turns, ratio 2.0, usage yes, every 2nd turn (30k+10k)',
  },
  {
    name: 'TestStress_8k_OnlyToolResponses',
    window: k8, turns: 10, ratio: 2.0, usage: true, user: 80, answer: 60,
    tools: () => [5_000],
    validates: 'Minimal text, dominated by tool responses',
    specRow: '10 turns, ratio 2.0, usage yes, 1 tool/turn (5k)',
  },
  {
    name: 'TestStress_200k_VeryHighTokenRatio_4x',
    window: k200, turns: 10, ratio: 4.0, usage: true, user: 600,
    tools: () => [20_000],
    validates: 'Extreme 4x tokenizer ratio',
    specRow: '10 turns, ratio 4.0, usage yes, 1 tool/turn (20k)',
  },
  {
    name: 'TestStress_8k_RapidFireShortMessages',
    window: k8, turns: 80, ratio: 1.8, usage: true, user: 120, answer: 160,
    validates: 'Many short messages over long session',
    specRow: '80 turns, ratio 1.8, usage yes, no tools',
  },
  {
    name: 'TestStress_200k_100Turns_MixedWorkload',
    window: k200, turns: 100, ratio: 2.3, usage: true, user: 600,
    // Log-uniform sizes: mostly small outputs, now and then a large one, as in a real session.
    tools: (_turn, random) =>
      Array.from({ length: between(random, 0, 3) }, () => Math.round(1_000 * Math.pow(50, random()))),
    validates: 'Long session with varied tool sizes',
    specRow: '100 turns, ratio 2.3, usage yes, 0-3 tools/turn (1k-50k)',
  },
  {
    name: 'TestStress_8k_AlternatingToolAndText',
    window: k8, turns: 30, ratio: 2.0, usage: true, user: 400, answer: 300,
    tools: (turn) => (turn % 2 === 0 ? [3_000] : []),
    validates: 'Alternating patterns compact correctly',
    specRow: '30 turns, ratio 2.0, usage yes, every 2nd turn (3k)',
  },
];

/** One tool output of `multiple` × the window (in our tokens), in the middle of a three-turn session. */
function giantOutline(window: number, multiple: number): ScenarioOutline {
  const label = window === k200 ? '200k' : '128k';
  return {
    name: `TestStress_${label}_GiantOutput_${multiple}x`,
    source: 'giant-output',
    window,
    turns: 3,
    ratio: 1.3,
    usage: true,
    user: 600,
    tools: (turn) => (turn === 2 ? [window * multiple * toolOutputCharactersPerToken] : []),
    validates: `A single tool output of ${multiple}x the window is cut to fit; the session goes on`,
    specRow: `3 turns, ratio 1.3, usage yes, 1 output of ~${multiple}x the window (turn 2)`,
  };
}

/** The giant-output set: one tool output of 1×, 2× (200k window) and 5× (128k window) the window. */
const giantOutlines: readonly ScenarioOutline[] = [giantOutline(k200, 1), giantOutline(k200, 2), giantOutline(k128, 5)];

/**
 * Every scenario `ctx stress` runs: spec 002's 25 `TestStress_*` scenarios in the spec's order, then the three
 * giant-output ones. Deterministic: the same list on every call.
 */
export function createStressScenarios(): readonly StressScenario[] {
  return [...specOutlines, ...giantOutlines].map(buildScenario);
}
