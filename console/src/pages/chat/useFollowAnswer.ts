// Keeps an answer being written in view, as long as the person has not scrolled up to read something
// else: the page scrolls to its end after each frame's text, and stops following at the first
// scroll away from the end.
import { useEffect, useLayoutEffect, useRef } from 'react';

/** Pixels from the end of the page that still count as being at its end. */
const NEAR_END = 160;

function isNearEnd(): boolean {
  const page = document.documentElement;
  return page.scrollHeight - (window.scrollY + window.innerHeight) < NEAR_END;
}

export function useFollowAnswer(writing: boolean, text: string): void {
  // Following from the start: the person has just asked, and expects to see the answer come.
  const following = useRef(true);

  useEffect(() => {
    if (!writing) return;
    const onScroll = () => {
      following.current = isNearEnd();
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [writing]);

  useLayoutEffect(() => {
    if (writing && following.current) window.scrollTo({ top: document.documentElement.scrollHeight });
  }, [writing, text]);
}
