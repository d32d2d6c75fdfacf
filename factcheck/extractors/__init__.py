"""Text to claims to facts: segmentation and fact extraction."""
