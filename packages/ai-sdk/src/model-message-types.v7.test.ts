// Type-level checks of @ctx/format-ai-sdk's message types against the real AI SDK 7 `ModelMessage` (installed as `ai-v7`).
// Types only: nothing of AI SDK 7 runs, so this file also passes on Node 20. `tsc` (the typecheck task) checks them; a new part type, field or output type in a new release fails it.
import type {
  AiSdkCustomPart,
  AiSdkFilePart,
  AiSdkModelMessage,
  AiSdkReasoningFilePart,
  AiSdkReasoningPart,
  AiSdkTextPart,
  AiSdkToolApprovalRequestPart,
  AiSdkToolApprovalResponsePart,
  AiSdkToolCallPart,
  AiSdkToolResultContentItem,
  AiSdkToolResultOutput,
} from '@ctx/format-ai-sdk';
import type {
  AssistantModelMessage,
  FilePart,
  ModelMessage,
  SystemModelMessage,
  TextPart,
  ToolApprovalRequest,
  ToolApprovalResponse,
  ToolCallPart,
  ToolModelMessage,
  ToolResultPart,
  UserModelMessage,
} from 'ai-v7';
import { describe, expectTypeOf, it } from 'vitest';
import type { MissingKeys, PartOf, Writable } from './test-support/message-type-checks.js';

type Ours<Role extends AiSdkModelMessage['role']> = PartOf<Extract<AiSdkModelMessage, { role: Role }>>;
type ReasoningPart = Extract<PartOf<AssistantModelMessage>, { type: 'reasoning' }>;
type TheirOutput = ToolResultPart['output'];
type TheirContentItem = Extract<TheirOutput, { type: 'content' }>['value'][number];

describe('@ctx/format-ai-sdk message types (AI SDK 7)', () => {
  it('should know every role, part type and part field of AI SDK 7 messages', () => {
    expectTypeOf<Exclude<ModelMessage['role'], AiSdkModelMessage['role']>>().toEqualTypeOf<never>();
    expectTypeOf<Exclude<PartOf<UserModelMessage>['type'], Ours<'user'>['type']>>().toEqualTypeOf<never>();
    // Every assistant part of AI SDK 7 has a place, `custom` and `reasoning-file` included.
    expectTypeOf<Exclude<PartOf<AssistantModelMessage>['type'], Ours<'assistant'>['type']>>().toEqualTypeOf<never>();
    expectTypeOf<Exclude<PartOf<ToolModelMessage>['type'], Ours<'tool'>['type']>>().toEqualTypeOf<never>();
    expectTypeOf<MissingKeys<PartOf<UserModelMessage>, Ours<'user'>>>().toEqualTypeOf<never>();
    expectTypeOf<MissingKeys<PartOf<AssistantModelMessage>, Ours<'assistant'>>>().toEqualTypeOf<never>();
    expectTypeOf<MissingKeys<PartOf<ToolModelMessage>, Ours<'tool'>>>().toEqualTypeOf<never>();
  });

  it('should know every tool output type and content item type of AI SDK 7', () => {
    expectTypeOf<Exclude<TheirOutput['type'], AiSdkToolResultOutput['type']>>().toEqualTypeOf<never>();
    expectTypeOf<MissingKeys<TheirOutput, AiSdkToolResultOutput>>().toEqualTypeOf<never>();
    expectTypeOf<Exclude<TheirContentItem['type'], AiSdkToolResultContentItem['type']>>().toEqualTypeOf<never>();
  });

  it('should write messages and parts AI SDK 7 accepts', () => {
    expectTypeOf<Writable<Extract<AiSdkModelMessage, { role: 'system' }>>>().toExtend<SystemModelMessage>();
    expectTypeOf<Writable<Extract<AiSdkModelMessage, { role: 'user' }>>>().toExtend<UserModelMessage>();
    expectTypeOf<Writable<AiSdkTextPart>>().toExtend<TextPart>();
    expectTypeOf<Writable<AiSdkFilePart>>().toExtend<FilePart>();
    // AI SDK 7 also reads \`reason\` and \`isAutomatic\` on approval requests: the codec keeps them.
    expectTypeOf<Writable<AiSdkReasoningPart>>().toExtend<ReasoningPart>();
    expectTypeOf<Writable<AiSdkToolCallPart>>().toExtend<ToolCallPart>();
    expectTypeOf<Writable<AiSdkCustomPart>>().toExtend<Extract<PartOf<AssistantModelMessage>, { type: 'custom' }>>();
    expectTypeOf<Writable<AiSdkReasoningFilePart>>().toExtend<Extract<PartOf<AssistantModelMessage>, { type: 'reasoning-file' }>>();
    expectTypeOf<Writable<AiSdkToolApprovalRequestPart>>().toExtend<ToolApprovalRequest>();
    expectTypeOf<Writable<Omit<AiSdkToolApprovalResponsePart, 'providerOptions'>>>().toExtend<ToolApprovalResponse>();
    // Content items are typed loosely (AI SDK 7 and 7 differ there); every other output is exact.
    expectTypeOf<Writable<Exclude<AiSdkToolResultOutput, { type: 'content' }>>>().toExtend<TheirOutput>();
  });
});
