import type { FeedbackFigures, NoteRecord, ReviewRecord } from './feedback.repo.js';
import type { CommentView, FeedbackFiguresView, ReviewView } from './feedback.schemas.js';

export function presentNote(note: NoteRecord): CommentView {
  return { id: note.id, response_id: note.response_id, user_id: note.user_id, text: note.text, created_on: note.created_on, created_by: note.created_by_email };
}

export function presentReview(review: ReviewRecord): ReviewView {
  const { text, ...note } = presentNote(review);
  return { ...note, verdict: review.verdict, note: text };
}

export function presentFigures(figures: FeedbackFigures): FeedbackFiguresView {
  return { ...figures, latest_review: figures.latest_review && presentReview(figures.latest_review) };
}
