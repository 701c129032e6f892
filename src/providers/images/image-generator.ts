// What agent images are made with: an image model behind an OpenAI-compatible images API when one is
// configured (IMAGE_BASE_URL), else a deterministic avatar drawn here. Both answer bytes that the
// caller still checks by their content and size.
import { avatarPng } from './avatar.js';

export interface ImageRequest {
  /** What to draw. */
  prompt: string;
  /** Whose image it is: the avatar is drawn from it. */
  seed: string;
  /** Answers larger than this are refused before they are read whole. */
  maxBytes: number;
}

export interface ImageGenerator {
  /** 'model' or 'avatar', as shown to clients. */
  readonly source: 'model' | 'avatar';
  generate(request: ImageRequest): Promise<Buffer>;
}

export const avatarGenerator: ImageGenerator = {
  source: 'avatar',
  generate: async ({ seed }) => avatarPng(seed),
};
