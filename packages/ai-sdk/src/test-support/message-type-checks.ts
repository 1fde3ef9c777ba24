/** The part union of a message's array content. */
export type PartOf<Message extends { readonly content: unknown }> = Extract<Message['content'], readonly unknown[]>[number] & {
  readonly type: string;
};

/** The field names a part of `Theirs` has that our part of the same `type` lacks (never when ours covers theirs). */
export type MissingKeys<Theirs extends { readonly type: string }, Ours extends { readonly type: string }> = {
  [Type in Theirs['type']]: [Extract<Ours, { readonly type: Type }>] extends [never]
    ? never
    : Exclude<keyof Extract<Theirs, { readonly type: Type }>, keyof Extract<Ours, { readonly type: Type }>>;
}[Theirs['type']];

/** `T` without `readonly` anywhere: AI SDK message types use mutable arrays, ours readonly ones. */
export type Writable<T> = T extends URL | Uint8Array | ArrayBuffer
  ? T
  : T extends readonly (infer Item)[]
    ? Writable<Item>[]
    : T extends object
      ? { -readonly [Key in keyof T]: Writable<T[Key]> }
      : T;
