"""A quiz: questions asked one by one, each answer graded and reacted to, a score at the end."""
