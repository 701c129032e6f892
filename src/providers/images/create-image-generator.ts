// The image generator of the configuration: the image model when IMAGE_BASE_URL is set, else the
// avatar drawn from the seed (src/providers/images/avatar.ts).
import type { ImageSettings } from '../../config.js';
import type { EgressClient } from '../../net/egress.js';
import { avatarGenerator, type ImageGenerator } from './image-generator.js';
import { OpenAiImageModel } from './openai-images.js';

export function createImageGenerator(settings: ImageSettings | undefined, egress: EgressClient): ImageGenerator {
  return settings === undefined ? avatarGenerator : new OpenAiImageModel(settings, egress);
}
