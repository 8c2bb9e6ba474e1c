"""The live session: one classroom in class, its turns, its lesson, and the driver that plays them."""
