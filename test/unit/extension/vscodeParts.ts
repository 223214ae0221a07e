// Stand-ins for the vscode.lm part classes, with the fields the real ones have (tests run without VS Code).
import type { PartFactory } from "../../../client/src/lm/response";

export class TextPart {
  constructor(public value: string) {}
}
export class ToolCallPart {
  constructor(
    public callId: string,
    public name: string,
    public input: object,
  ) {}
}
export class ToolResultPart {
  constructor(
    public callId: string,
    public content: unknown[],
  ) {}
}
export class DataPart {
  constructor(
    public data: Uint8Array,
    public mimeType: string,
  ) {}
}

export type ResponsePart = TextPart | ToolCallPart;

export const PARTS: PartFactory<ResponsePart> = {
  text: (v) => new TextPart(v),
  toolCall: (id, name, input) => new ToolCallPart(id, name, input),
};

/** LanguageModelChatMessageRole: User 1, Assistant 2; VS Code's chat also sends System as 3. */
export const user = (...content: unknown[]) => ({ role: 1, content, name: undefined });
export const assistant = (...content: unknown[]) => ({ role: 2, content, name: undefined });
export const system = (...content: unknown[]) => ({ role: 3, content, name: undefined });
