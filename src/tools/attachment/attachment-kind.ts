// The attachment tool as a kind: reads the files given in the conversation, no secret, no rule
// beyond its schema.
import type { ToolKindDescriptor } from '../tool-kind.js';
import { AttachmentConfig } from './config.js';
import { createAttachmentTool } from './index.js';

export const attachmentToolKind: ToolKindDescriptor<AttachmentConfig> = {
  kind: 'attachment',
  settings: AttachmentConfig,
  takesSecret: false,
  defaultDescription: 'Reads the files the user gave in this conversation.',
  settingsProblems: () => [],
  create: createAttachmentTool,
};
