// Type-level checks of @ctx/format-ai-sdk's message types against the real AI SDK 6 `ModelMessage` (package `ai`).
// `tsc` (the typecheck task) checks them; a new part type, field or output type in a new release fails it.
import type {
  AiSdkFilePart,
  AiSdkModelMessage,
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
} from 'ai';
import { describe, expectTypeOf, it } from 'vitest';
import type { MissingKeys, PartOf, Writable } from './test-support/message-type-checks.js';

type Ours<Role extends AiSdkModelMessage['role']> = PartOf<Extract<AiSdkModelMessage, { role: Role }>>;
type ReasoningPart = Extract<PartOf<AssistantModelMessage>, { type: 'reasoning' }>;
type TheirOutput = ToolResultPart['output'];
type TheirContentItem = Extract<TheirOutput, { type: 'content' }>['value'][number];

describe('@ctx/format-ai-sdk message types (AI SDK 6)', () => {
  it('should know every role, part type and part field of AI SDK 6 messages', () => {
    expectTypeOf<Exclude<ModelMessage['role'], AiSdkModelMessage['role']>>().toEqualTypeOf<never>();
    expectTypeOf<Exclude<PartOf<UserModelMessage>['type'], Ours<'user'>['type']>>().toEqualTypeOf<never>();
    expectTypeOf<Exclude<PartOf<AssistantModelMessage>['type'], Ours<'assistant'>['type']>>().toEqualTypeOf<never>();
    expectTypeOf<Exclude<PartOf<ToolModelMessage>['type'], Ours<'tool'>['type']>>().toEqualTypeOf<never>();
    expectTypeOf<MissingKeys<PartOf<UserModelMessage>, Ours<'user'>>>().toEqualTypeOf<never>();
    expectTypeOf<MissingKeys<PartOf<AssistantModelMessage>, Ours<'assistant'>>>().toEqualTypeOf<never>();
    expectTypeOf<MissingKeys<PartOf<ToolModelMessage>, Ours<'tool'>>>().toEqualTypeOf<never>();
  });

  it('should know every tool output type and content item type of AI SDK 6', () => {
    expectTypeOf<Exclude<TheirOutput['type'], AiSdkToolResultOutput['type']>>().toEqualTypeOf<never>();
    expectTypeOf<MissingKeys<TheirOutput, AiSdkToolResultOutput>>().toEqualTypeOf<never>();
    expectTypeOf<Exclude<TheirContentItem['type'], AiSdkToolResultContentItem['type']>>().toEqualTypeOf<never>();
  });

  it('should write messages and parts AI SDK 6 accepts', () => {
    expectTypeOf<Writable<Extract<AiSdkModelMessage, { role: 'system' }>>>().toExtend<SystemModelMessage>();
    expectTypeOf<Writable<Extract<AiSdkModelMessage, { role: 'user' }>>>().toExtend<UserModelMessage>();
    expectTypeOf<Writable<AiSdkTextPart>>().toExtend<TextPart>();
    expectTypeOf<Writable<AiSdkFilePart>>().toExtend<FilePart>();
    expectTypeOf<Writable<AiSdkReasoningPart>>().toExtend<ReasoningPart>();
    expectTypeOf<Writable<AiSdkToolCallPart>>().toExtend<ToolCallPart>();
    expectTypeOf<Writable<AiSdkToolApprovalRequestPart>>().toExtend<ToolApprovalRequest>();
    expectTypeOf<Writable<Omit<AiSdkToolApprovalResponsePart, 'providerOptions'>>>().toExtend<ToolApprovalResponse>();
    // Content items are typed loosely (AI SDK 6 and 7 differ there); every other output is exact.
    expectTypeOf<Writable<Exclude<AiSdkToolResultOutput, { type: 'content' }>>>().toExtend<TheirOutput>();
  });
});
