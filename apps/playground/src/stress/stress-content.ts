import type { HistoryEntry, TextBlock, ToolDefinition } from '@ctx/core';
import {
  generateTechnicalText,
  generateToolOutput,
  generateToolParameters,
  stressToolNames,
  type StressToolName,
} from './generate-stress-text.js';
import type { StressScenario } from './stress-scenario.js';

/** The entries of one simulated turn, in the order the session adds them. */
export interface StressTurnContent {
  /** The user's message. */
  readonly user: HistoryEntry;
  /** The model's text answer to the first call of the turn. */
  readonly answer: HistoryEntry;
  /** The model's parallel tool calls (one `ai` entry) and their results (one `tool` entry); absent without tools. */
  readonly toolCalls?: HistoryEntry;
  readonly toolResults?: HistoryEntry;
  /** The model's answer after reading the tool results; absent without tools. */
  readonly closingAnswer?: HistoryEntry;
}

/** Everything a scenario's sessions send, generated once and shared by every chain that runs it. */
export interface StressContent {
  readonly system: readonly TextBlock[];
  readonly tools: readonly ToolDefinition[];
  /** The content of 1-based `turn`. */
  turn(turn: number): StressTurnContent;
}

const toolDescriptions: Readonly<Record<StressToolName, { description: string; parameter: string }>> = {
  read_file: { description: 'Reads a file of the workspace and returns its content.', parameter: 'file_path' },
  run_shell_command: { description: 'Runs a shell command (kubectl, helm, git) and returns its output.', parameter: 'command' },
  search_file_content: { description: 'Searches the workspace for a pattern and returns matching lines.', parameter: 'pattern' },
};

/** The tool definitions the simulated agent sends with every request. */
function toolDefinitions(): ToolDefinition[] {
  return stressToolNames.map((name) => ({
    name,
    description: toolDescriptions[name].description,
    inputSchema: {
      type: 'object',
      properties: { [toolDescriptions[name].parameter]: { type: 'string' }, path: { type: 'string' } },
      required: [toolDescriptions[name].parameter],
    },
  }));
}

function text(speaker: 'human' | 'ai', value: string): HistoryEntry {
  return { speaker, blocks: [{ type: 'text', text: value }] };
}

/**
 * Generates a scenario's content lazily and remembers it: every chain gets the same entry objects and texts, so a
 * shared token counter tokenizes each text once (its content cache) however many chains run the scenario.
 *
 * @param scenario - The scenario whose turns to generate.
 */
export function createStressContent(scenario: StressScenario): StressContent {
  const turns = new Map<number, StressTurnContent>();
  const system: TextBlock[] = [
    { type: 'text', text: generateTechnicalText(`${scenario.name}/system`, scenario.systemPromptCharacters) },
  ];
  const tools = toolDefinitions();

  const generate = (turn: number): StressTurnContent => {
    const plan = scenario.turns[turn - 1];
    if (plan === undefined) {
      throw new RangeError(`Expected a turn in 1..${scenario.turns.length} of ${scenario.name}, got ${turn}`);
    }
    const seed = `${scenario.name}/turn ${turn}`;
    const user = text('human', generateTechnicalText(`${seed}/user`, plan.userCharacters));
    const answer = text('ai', generateTechnicalText(`${seed}/answer`, plan.answerCharacters));
    if (plan.toolCalls.length === 0) return { user, answer };
    const ids = plan.toolCalls.map((_, index) => `call_${turn}_${index + 1}`);
    const toolCalls: HistoryEntry = {
      speaker: 'ai',
      blocks: plan.toolCalls.map((call, index) => ({
        type: 'tool_call',
        id: ids[index] as string,
        name: call.tool,
        parameters: generateToolParameters(`${seed}/call ${index + 1}`, call.tool),
      })),
    };
    const toolResults: HistoryEntry = {
      speaker: 'tool',
      blocks: plan.toolCalls.map((call, index) => ({
        type: 'tool_response',
        callId: ids[index] as string,
        toolName: call.tool,
        result: generateToolOutput(`${seed}/call ${index + 1}`, call.tool, call.characters),
      })),
    };
    const closingAnswer = text('ai', generateTechnicalText(`${seed}/closing answer`, plan.answerCharacters));
    return { user, answer, toolCalls, toolResults, closingAnswer };
  };

  return {
    system,
    tools,
    turn(turn) {
      let content = turns.get(turn);
      if (content === undefined) {
        content = generate(turn);
        turns.set(turn, content);
      }
      return content;
    },
  };
}
